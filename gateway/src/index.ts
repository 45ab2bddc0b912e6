export {
  createGateway,
  DEFAULT_BODY_LIMIT,
  DEFAULT_UPLOAD_LIMIT,
  type Gateway,
  type GatewayOptions,
} from './gateway';
export {
  gatewaySettingsFromEnv,
  upstreamEnvKey,
  GatewayConfigError,
  type GatewaySettings,
} from './gateway-config';
export {
  ROUTES,
  SERVICE_NAMES,
  WEBSOCKET_PATH,
  matchRoute,
  isApiPath,
  type Route,
  type RouteMatch,
  type ServiceName,
  type BodyLimitKind,
} from './routes';
export { CONTENT_SECURITY_POLICY } from './security-headers';
export type { ReplicaStatus } from './upstream-pool';
