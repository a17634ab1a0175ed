/**
 * What the client needs of an axios instance, stated structurally: an `AxiosInstance` fits it, and the published
 * declarations name no axios type (axios stays the transport, behind the SDK's own types and errors).
 */
export interface HttpTransport {
  request(config: TransportRequest): Promise<{ status: number; data: unknown; headers: unknown }>;
  /** Read for a User-Agent the instance was configured with (kept in front of the SDK's). */
  defaults: { headers: unknown };
}

/** One request as the client hands it to the transport (a subset of axios's request config). */
interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  data: unknown;
  timeout: number | undefined;
  signal: AbortSignal | undefined;
  validateStatus: (status: number) => boolean;
}
