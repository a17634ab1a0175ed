/** A JSON Schema object, as MCP carries a tool's input and output schemas. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * One tool per contract endpoint, made at build time from the contract and its OpenAPI (scripts/tool-catalogue.ts):
 * what `tools/list` shows, and where a call goes.
 */
export interface ToolSpec {
  /** From the path: `contacts_list`, `chat_message_send`, `platform_tickets_manage`. */
  name: string;
  /** Its resource area (`contacts`, `custom_fields`, `chat`, `platform`): what `?tools=` names. */
  group: string;
  /** The contract's summary. */
  title: string;
  /** The contract's summary and description: what the endpoint does, its rate class and who may call it. */
  description: string;
  /** The SDK method's place (`workspace.contacts.list`): where the stdio server calls it. */
  operation: string;
  /** The API path the call is a POST to. */
  path: string;
  /** The endpoint's parameters: its POST body schema as the OpenAPI publishes it, references inlined. */
  inputSchema: JsonSchema & { type: 'object' };
  /** The success envelope without `success`: `data`, with `pagination` for pages and `total` for counted lists. */
  outputSchema: JsonSchema & { type: 'object' };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}
