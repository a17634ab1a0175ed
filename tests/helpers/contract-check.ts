import { contract, contractRoutes } from '@switchboard/contract';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';

const ROUTES = new Map(contractRoutes(contract).map((route) => [`${route.method} ${route.path}`, route]));

/** A reply that does not say what the contract says it does: the test fails with what drifted. */
export class ContractDriftError extends Error {}

function checkReply(response: AxiosResponse): AxiosResponse {
  const { method = 'get', url = '', baseURL } = response.config;
  const route = ROUTES.get(`${method.toUpperCase()} ${new URL(url, baseURL).pathname}`);
  if (!route) return response;
  const where = `${route.method} ${route.path} → ${response.status}`;
  const schema = route.responses[response.status];
  if (!schema) throw new ContractDriftError(`${where}: the contract declares no such status`);
  const result = schema.safeParse(response.data);
  if (!result.success) {
    const issues = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(reply)'}: ${issue.message}`)
      .join('; ');
    throw new ContractDriftError(`${where}: reply does not match the contract: ${issues}`);
  }
  return response;
}

/**
 * An axios instance whose every reply from a contract route is checked against that route's response schema
 * for its status (what ts-rest's validateResponse does, but on every status), so a drifting field fails the test.
 */
export function contractCheckedHttp(options: Parameters<typeof axios.create>[0] = {}): AxiosInstance {
  const http = axios.create(options);
  http.interceptors.response.use(checkReply);
  return http;
}
