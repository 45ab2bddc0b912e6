import { Controller, Get, Headers, Inject, Query, Req, Res, UseInterceptors } from '@nestjs/common';
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
    const audio = await this.proxy.open(query.url, range, user.id);
    reply.status(audio.status).headers(audio.headers);
    if (request.method === 'HEAD') {
      // Fastify answers HEAD with this GET handler: the headers are the answer; the body is not read at all.
      audio.body.destroy();
      await reply.send();
      return;
    }
    await reply.send(audio.body);
  }
}
