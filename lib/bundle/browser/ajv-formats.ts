/** Stands in for `ajv-formats` in the page's bundle, beside the stand-in for Ajv (./ajv.ts). */
export default function addFormats(): never {
  throw new Error("ajv-formats is not in the page's bundle (see docs/ARCHITECTURE.md, \"The page's start\").");
}
