export {
  createGateway,
  DEFAULT_BODY_LIMIT,
  DEFAULT_UPLOAD_LIMIT,
  ROSTER_UPLOAD_LIMIT,
  type Gateway,
  type GatewayOptions,
} from './gateway';
export type { UpgradeAuthenticator } from './upgrade';
export {
  gatewaySettingsFromEnv,
  upstreamEnvKey,
  GatewayConfigError,
  type GatewaySettings,
} from './gateway-config';
export {
  WEBSOCKET_PATH,
  buildRouteTable,
  matchRoute,
  isApiPath,
  type GatewayService,
  type Route,
  type RouteMatch,
  type ServiceRoute,
  type BodyLimitKind,
} from './routes';
export { CONTENT_SECURITY_POLICY } from './security-headers';
export type { ReplicaStatus } from './upstream-pool';
