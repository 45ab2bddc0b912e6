import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_LOGGER, violatedUniqueConstraint, type Logger } from '@district/nest-common';
import { AccountTakenError } from '../identity.errors';
import type { UserEntity } from '../users/user.entity';
import { MAX_USERNAME_ATTEMPTS, displayName, usernameBase, usernameCandidate } from '../users/username';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { ExternalIdentitiesRepository } from './external-identities.repository';
import { ExternalIdentityEntity } from './external-identity.entity';
import { OidcEmailRequiredError } from './oidc.errors';
import type { ProviderProfile } from './oidc-client.service';

/**
 * Finds the user a provider account signs in as: the one linked to it, else the one with the same
 * (provider-verified) email, which gets linked; else a new unapproved student is created and linked.
 */
@Injectable()
export class OidcAccountsService {
  constructor(
    @Inject(ExternalIdentitiesRepository) private readonly identities: ExternalIdentitiesRepository,
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(UsersRepository) private readonly usersRepository: UsersRepository,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async findOrCreate(profile: ProviderProfile, retried = false): Promise<UserEntity> {
    const linked = await this.identities.findByAccount(profile.issuer, profile.subject);
    const linkedUser = linked && (await this.usersRepository.findById(linked.userId));
    if (linkedUser) return linkedUser;

    // An unverified address could belong to someone else: never link or create by it.
    if (!profile.email || !profile.emailVerified) throw new OidcEmailRequiredError();
    const byEmail = await this.usersRepository.findByEmail(profile.email);
    if (byEmail) {
      await this.identities.linkUnlessLinked(this.link(profile, byEmail.id));
      this.logger.info({ userId: byEmail.id, issuer: profile.issuer }, 'provider account linked by email');
      return byEmail;
    }

    try {
      return await this.create(profile, profile.email);
    } catch (error) {
      // Another sign-in of the same person won the race (same email or same provider account): use theirs.
      const lostRace =
        (error instanceof AccountTakenError && error.field === 'email') ||
        violatedUniqueConstraint(error) !== null;
      if (lostRace && !retried) return this.findOrCreate(profile, true);
      throw error;
    }
  }

  private async create(profile: ProviderProfile, email: string): Promise<UserEntity> {
    const base = usernameBase(profile.preferredUsername ?? email.split('@')[0]);
    for (let attempt = 0; attempt < MAX_USERNAME_ATTEMPTS; attempt++) {
      try {
        return await this.users.create(
          {
            name: displayName({
              name: profile.name,
              given_name: profile.givenName,
              family_name: profile.familyName,
              email,
            }),
            username: usernameCandidate(base, attempt),
            email,
            password: null,
            role: 'student',
            approved: false,
            isAdmin: false,
          },
          async (manager, user) => {
            await manager.insert(ExternalIdentityEntity, this.link(profile, user.id));
          },
        );
      } catch (error) {
        if (!(error instanceof AccountTakenError && error.field === 'username')) throw error;
      }
    }
    throw new Error('Could not find a free username for a new provider account');
  }

  private link(
    profile: ProviderProfile,
    userId: string,
  ): Pick<ExternalIdentityEntity, 'issuer' | 'subject' | 'userId'> {
    return { issuer: profile.issuer, subject: profile.subject, userId };
  }
}
