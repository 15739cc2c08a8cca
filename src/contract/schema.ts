/** A JSON Schema document (draft 2020-12), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };
