import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ExternalIdentityEntity } from './external-identity.entity';

/** The data access of provider accounts linked to users (table of migration 1732320000000). */
@Injectable()
export class ExternalIdentitiesRepository {
  constructor(
    @InjectRepository(ExternalIdentityEntity) private readonly identities: Repository<ExternalIdentityEntity>,
  ) {}

  findByAccount(issuer: string, subject: string): Promise<ExternalIdentityEntity | null> {
    return this.identities.findOneBy({ issuer, subject });
  }

  /** Links the provider account to a user; a link already there (a concurrent sign-in made it) is kept. */
  async linkUnlessLinked(link: Pick<ExternalIdentityEntity, 'issuer' | 'subject' | 'userId'>): Promise<void> {
    await this.identities.createQueryBuilder().insert().values(link).orIgnore().execute();
  }
}
