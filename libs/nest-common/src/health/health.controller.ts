import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import { Public } from '../auth/decorators';
import { Readiness } from './readiness';
import { ServiceMetrics } from './metrics';

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
  ) {}

  @Public()
  @Get('healthz')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  async ready(@Res() reply: Reply) {
    const result = await this.readiness.evaluate();
    reply.status(result.ready ? 200 : 503).send({ status: result.ready ? 'ready' : 'not ready', ...result });
  }

  @Public()
  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async scrape(@Res() reply: Reply) {
    reply.header('Content-Type', this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
