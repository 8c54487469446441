"use client";

import { initialValue, keyPath, itemPath, setOwn, type FormNode, type FormValue } from "@/lib/forms";
import styles from "./Tools.module.css";

export interface SchemaFieldProps {
  node: FormNode;
  value: FormValue;
  onChange: (value: FormValue) => void;
  path: string;
  label: string;
  required?: boolean;
  errors: ReadonlyMap<string, string>;
}

/** Renders one node of a form built from a JSON Schema: inputs, selects, nested objects and arrays, or raw JSON. */
export function SchemaField({ node, value, onChange, path, label, required, errors }: SchemaFieldProps) {
  const error = errors.get(path);
  const heading = (
    <span className={styles.fieldLabel}>
      {label}
      {required ? (
        <span className={styles.required} title="required">
          {" "}
          *
        </span>
      ) : null}
      {node.description && <span className="muted"> — {node.description}</span>}
    </span>
  );
  // A json value may stand in for any node (a value the form cannot show): edit it as text.
  if (node.kind === "json" || value.kind === "json") {
    const text = value.kind === "json" ? value.text : "";
    return (
      <label className="field">
        {heading}
        <textarea rows={3} spellCheck={false} value={text} onChange={(e) => onChange({ kind: "json", text: e.target.value })} aria-label={label} />
        {node.kind === "json" && <span className="muted small">JSON: {node.reason}</span>}
        {error && <span className="field-error">{error}</span>}
      </label>
    );
  }
  if (value.kind === "null") {
    return (
      <div className="field">
        {heading}
        <span className="muted">
          null{" "}
          <button type="button" onClick={() => onChange(initialValue({ ...node, nullable: false }))}>
            set a value
          </button>
        </span>
      </div>
    );
  }
  const nullButton = node.nullable ? (
    <button type="button" className={styles.smallButton} onClick={() => onChange({ kind: "null" })}>
      null
    </button>
  ) : null;

  switch (node.kind) {
    case "object": {
      if (value.kind !== "object") return null;
      return (
        <fieldset className={styles.formObject}>
          {path !== "arguments" && <legend>{heading}</legend>}
          {node.fields.length === 0 && <span className="muted small">No arguments.</span>}
          {node.fields.map((field) => {
            const childPath = keyPath(path, field.key);
            const child = Object.hasOwn(value.fields, field.key) ? value.fields[field.key] : undefined;
            if (!child) {
              return (
                <div key={field.key} className="field">
                  <span className={styles.fieldLabel}>{field.title ?? field.key}</span>
                  <button
                    type="button"
                    className={styles.smallButton}
                    onClick={() => {
                      const fields = { ...value.fields };
                      setOwn(fields, field.key, initialValue(field.node));
                      onChange({ ...value, fields });
                    }}
                  >
                    add {field.key}
                  </button>
                </div>
              );
            }
            return (
              <SchemaField
                key={field.key}
                node={field.node}
                value={child}
                path={childPath}
                label={field.title ?? field.key}
                required={field.required}
                errors={errors}
                onChange={(next) => {
                  const fields = { ...value.fields };
                  setOwn(fields, field.key, next);
                  onChange({ ...value, fields });
                }}
              />
            );
          })}
          {nullButton}
          {error && <span className="field-error">{error}</span>}
        </fieldset>
      );
    }
    case "array": {
      if (value.kind !== "array") return null;
      return (
        <fieldset className={styles.formArray}>
          <legend>{heading}</legend>
          {value.items.map((item, index) => (
            <div key={index} className={styles.arrayItem}>
              <SchemaField
                node={node.item}
                value={item}
                path={itemPath(path, index)}
                label={`${label}[${index}]`}
                errors={errors}
                onChange={(next) => onChange({ kind: "array", items: value.items.map((v, i) => (i === index ? next : v)) })}
              />
              <button
                type="button"
                className={styles.smallButton}
                onClick={() => onChange({ kind: "array", items: value.items.filter((_, i) => i !== index) })}
              >
                remove
              </button>
            </div>
          ))}
          <button type="button" className={styles.smallButton} onClick={() => onChange({ kind: "array", items: [...value.items, initialValue(node.item)] })}>
            add item
          </button>
          {error && <span className="field-error">{error}</span>}
        </fieldset>
      );
    }
    case "enum":
      return (
        <label className="field">
          {heading}
          <select
            value={value.kind === "enum" ? value.index : -1}
            onChange={(e) => onChange({ kind: "enum", index: Number(e.target.value) })}
            aria-label={label}
          >
            <option value={-1}>—</option>
            {node.options.map((option, index) => (
              <option key={index} value={index}>
                {option.label}
              </option>
            ))}
          </select>
          {nullButton}
          {error && <span className="field-error">{error}</span>}
        </label>
      );
    case "boolean":
      return (
        <label className={`field ${styles.fieldInline}`}>
          <input
            type="checkbox"
            checked={value.kind === "boolean" && value.value}
            onChange={(e) => onChange({ kind: "boolean", value: e.target.checked })}
            aria-label={label}
          />
          {heading}
          {nullButton}
          {error && <span className="field-error">{error}</span>}
        </label>
      );
    case "number":
    case "string": {
      const text = value.kind === "string" || value.kind === "number" ? value.text : "";
      const hint =
        node.kind === "number"
          ? [node.integer ? "integer" : "number", node.min !== undefined ? `≥ ${node.min}` : "", node.max !== undefined ? `≤ ${node.max}` : ""]
              .filter(Boolean)
              .join(", ")
          : node.format;
      return (
        <label className="field">
          {heading}
          <input
            value={text}
            inputMode={node.kind === "number" ? "decimal" : undefined}
            placeholder={hint}
            onChange={(e) => onChange({ kind: node.kind, text: e.target.value })}
            aria-label={label}
          />
          {nullButton}
          {error && <span className="field-error">{error}</span>}
        </label>
      );
    }
  }
}
