import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects, type UserExportReply, type UserExportRequest } from '@district/contracts';
import { DataSource } from 'typeorm';

/**
 * content's part of a person's right-of-access file (ADR 0021), asked by identity over the bus
 * (`content.user.export.v1`): the comments they wrote (pending ones too) and the posts they authored.
 */
@Controller()
export class UserExportResponder {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @MessagePattern(Subjects.contentUserExport)
  async answer({ userId }: UserExportRequest): Promise<UserExportReply> {
    const id = userId.toLowerCase();
    const comments = (await this.dataSource.query(
      `SELECT c.id, c.post_id AS "postId", p.title AS "postTitle", c.parent_id AS "parentId",
              c.author_name AS "authorName", c.content, c.status, c.created_at AS "createdAt"
         FROM comments c JOIN posts p ON p.id = c.post_id
        WHERE c.author_id = $1 ORDER BY c.created_at, c.id`,
      [id],
    )) as Record<string, unknown>[];
    const posts = (await this.dataSource.query(
      `SELECT id, title, slug, status, author_name AS "authorName", created_at AS "createdAt",
              published_at AS "publishedAt"
         FROM posts WHERE author_id = $1 ORDER BY created_at, id`,
      [id],
    )) as Record<string, unknown>[];
    return { service: 'content', sections: { comments, posts } };
  }
}
