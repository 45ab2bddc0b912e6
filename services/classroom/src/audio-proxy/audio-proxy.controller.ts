import { Controller, Get, Headers, Inject, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CurrentUser, ZodPipe, type AuthUser } from '@district/nest-common';
import { AudioProxyErrorsInterceptor, AudioProxyMessages as M } from './audio-proxy.errors';
import { AudioProxyService } from './audio-proxy.service';

export const audioProxyQuerySchema = z.object({
  url: z.string({ error: M.invalidUrl }).min(1, M.invalidUrl).max(4096, M.invalidUrl),
});

/**
 * `GET /api/audio-proxy?url={encoded link}` (spec §7): any signed-in user (the platform's guard answers 401 to
 * anyone else). Answers 200/206 with the audio streamed, or a JSON error with a `message`.
 */
@Controller('api/audio-proxy')
@UseInterceptors(AudioProxyErrorsInterceptor)
export class AudioProxyController {
  constructor(@Inject(AudioProxyService) private readonly proxy: AudioProxyService) {}

  @Get()
  async play(
    @Query(new ZodPipe(audioProxyQuerySchema)) query: z.infer<typeof audioProxyQuerySchema>,
    @Headers('range') range: string | undefined,
    @CurrentUser() user: AuthUser,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.proxy.play(query.url, range, user.id, (status, headers) => {
      // The upstream's answer is accepted: from here the body goes from undici straight into the raw response
      // (no Readable and pipe in between: the proxy's throughput, bench/classroom). Refusals before this point
      // are thrown and answered as JSON by the interceptor as usual. Fastify's onResponse hooks (metrics, access
      // log) still run on the raw response's finish; the headers the platform set on the reply (x-request-id,
      // connection: close while draining) are sent with ours.
      reply.hijack();
      try {
        reply.raw.writeHead(status, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...headers });
      } catch (error) {
        // Fastify no longer answers for us: a response that cannot start is closed, never left hanging.
        reply.raw.destroy();
        throw error;
      }
      if (request.method === 'HEAD') {
        // Fastify answers HEAD with this GET handler: the headers are the answer; the body is not read at all.
        reply.raw.end();
        return undefined;
      }
      return reply.raw;
    });
  }
}
