import {
  Controller,
  ForbiddenException,
  Get,
  Header,
  HttpCode,
  Inject,
  type OnModuleInit,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { Public } from '../auth/decorators';
import { Readiness } from './readiness';
import { ServiceMetrics } from './metrics';
import { METRICS_TOKEN_NEEDED } from './metrics-access';
import { SERVICE_NAME } from '../http/tokens';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(body: unknown): void;
}

@Controller()
export class HealthController implements OnModuleInit {
  constructor(
    @Inject(Readiness) private readonly readiness: Readiness,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(SERVICE_NAME) private readonly service: string,
  ) {}

  /** `service_ready` and `dependency_up` beside the service's other figures on /metrics. */
  onModuleInit(): void {
    this.readiness.registerMetrics(this.metrics.registry);
  }

  /**
   * Alive, and which service this is: the gateway sends a service's traffic only to an address that answers with
   * that service's name, so a misconfigured upstream, or a port another program took, is never routed to.
   */
  @Public()
  @Get('healthz')
  @HttpCode(200)
  live() {
    return { status: 'ok', service: this.service };
  }

  /**
   * Whether to send traffic here: the gating checks only (the database; Redis too for chat), so an outage of what
   * the service serves without in degraded mode never takes it out of rotation (ADR 0043). Names the service, as
   * /healthz does, because the gateway routes by this answer. Check names and results only: whoever can reach the
   * service learns nothing about where it connects.
   */
  @Public()
  @Get('readyz')
  @Header('Cache-Control', 'no-store')
  async ready(@Res() reply: Reply) {
    const result = await this.readiness.evaluate();
    const checks = Object.fromEntries(result.gating.map((name) => [name, result.checks[name]]));
    reply.status(result.ready ? 200 : 503).send({
      status: result.ready ? 'ready' : 'not ready',
      service: this.service,
      ready: result.ready,
      checks,
    });
  }

  /**
   * Every dependency, gating or watched, always 200: what an operator reads to see Redis or NATS away while the
   * service stays ready. `gating` names the checks `/readyz` answers by.
   */
  @Public()
  @Get('statusz')
  @Header('Cache-Control', 'no-store')
  async status() {
    const result = await this.readiness.evaluate();
    return { service: this.service, ready: result.ready, checks: result.checks, gating: result.gating };
  }

  /** Public to the session guard: Prometheus has no session, it presents METRICS_TOKEN instead. */
  @Public()
  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async scrape(
    @Req() request: { headers: Record<string, string | string[] | undefined> },
    @Res() reply: Reply,
  ) {
    const verdict = this.metrics.access.verdict(request.headers.authorization);
    if (verdict === 'token-needed') throw new ForbiddenException(METRICS_TOKEN_NEEDED);
    if (verdict === 'unauthorized') {
      reply.header('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException('A valid metrics token is required');
    }
    reply
      .header('Content-Type', this.metrics.registry.contentType)
      .send(await this.metrics.registry.metrics());
  }
}
