import {
  Controller,
  ForbiddenException,
  Get,
  Header,
  HttpCode,
  Inject,
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
export class HealthController {
  constructor(
    @Inject(Readiness) private readonly readiness: Readiness,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(SERVICE_NAME) private readonly service: string,
  ) {}

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

  /** Check names and results only: whoever can reach the service learns nothing about where it connects. */
  @Public()
  @Get('readyz')
  async ready(@Res() reply: Reply) {
    const result = await this.readiness.evaluate();
    reply
      .status(result.ready ? 200 : 503)
      .send({ status: result.ready ? 'ready' : 'not ready', ready: result.ready, checks: result.checks });
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
