/** Tool-call forms generated from input schemas: the model, fresh and loaded values, and arguments. */
export { buildFormModel } from "./schema-form";
export { fromArguments, initialValue } from "./schema-form-values";
export { isBlank, toArguments } from "./schema-form-arguments";
export type { ArgumentsResult } from "./schema-form-arguments";
export { ROOT_PATH, itemPath, keyPath, setOwn, getOwn } from "./form-model";
export type { EnumOption, FormError, FormField, FormNode, FormNodeKind, FormValue, NodeBase } from "./form-model";
