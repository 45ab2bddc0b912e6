import { existsSync } from 'node:fs';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DEMO_ACCOUNTS } from '@district/contracts';
import { PLATFORM_LOGGER, PLATFORM_RUNTIME, type Logger, type PlatformRuntime } from '@district/nest-common';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity.config';
import { AccountTakenError } from '../identity.errors';
import { MAX_USERNAME_ATTEMPTS, usernameBase, usernameCandidate } from '../users/username';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { RosterImportService } from '../roster/roster-import.service';
import { DEMO_DISTRICT_ZIP, demoRosterSourcedId } from './demo-district';
import { DemoRosterRepository } from './demo-roster.repository';

/**
 * People who must exist when the service starts: the administrator named by ADMIN_EMAIL, and on a demo site
 * the demo district. Idempotent, and safe when several replicas start at once.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(UsersRepository) private readonly usersRepository: UsersRepository,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(RosterImportService) private readonly roster: RosterImportService,
    @Inject(DemoRosterRepository) private readonly demoRoster: DemoRosterRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.demo) {
      await this.seedDemoDistrict();
      await this.seedDemoRoster();
    }
    if (this.config.admin) await this.bootstrapAdmin(this.config.admin);
  }

  /** Creates the missing demo accounts; existing ones are left exactly as they are. */
  async seedDemoDistrict(): Promise<void> {
    const start = Date.now();
    let created = 0;
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      if (await this.usersRepository.findByEmail(account.email)) continue;
      const user = await this.users.createIfAbsent({
        id: account.id,
        name: account.name,
        username: account.username,
        email: account.email,
        password: this.config.demoPassword,
        role: account.role,
        approved: account.approved,
        isAdmin: account.isAdmin,
        // Spaced a millisecond apart so the admin list shows them in a stable, sensible order.
        createdAt: new Date(start + index),
      });
      if (user) created++;
    }
    if (created > 0) this.logger.info({ created }, 'demo accounts seeded');
  }

  /**
   * On a demo site without a roster yet: the demo district's schools, classes and pupils, imported from the zip kept
   * beside this file. The demo teacher and students are in it exactly as seedDemoDistrict creates them, so stamping
   * their sourcedIds first lets the import take them over unchanged. Once only: a later start finds the roster.
   * A tree without the zip (the compiled runtime image copies only code) keeps the demo accounts alone: the spec's
   * one-school site.
   */
  async seedDemoRoster(): Promise<void> {
    if (!existsSync(DEMO_DISTRICT_ZIP)) {
      this.logger.warn(
        { path: DEMO_DISTRICT_ZIP },
        'demo roster zip not found: the demo site has no classes',
      );
      return;
    }
    await this.demoRoster.exclusively(async () => {
      if (await this.demoRoster.hasRoster()) return;
      await this.demoRoster.stampSourcedIds(
        DEMO_ACCOUNTS.filter((a) => a.approved && !a.isAdmin).map((a) => ({
          id: a.id,
          sourcedId: demoRosterSourcedId(a.key),
        })),
      );
      const started = Date.now();
      const result = await this.roster.importFile(DEMO_DISTRICT_ZIP, { fileName: 'demo-district.zip' });
      const { status, created, updated, errorCount, failure } = result;
      const summary = { status, created, updated, errorCount, failure, ms: Date.now() - started };
      if (status === 'done' && errorCount === 0) this.logger.info(summary, 'demo roster imported');
      else this.logger.warn(summary, 'demo roster import did not apply cleanly');
    });
  }

  /** Creates the administrator, or makes the existing account an approved admin. Never touches its password. */
  async bootstrapAdmin(admin: NonNullable<IdentityConfig['admin']>): Promise<void> {
    const existing = await this.usersRepository.findByEmail(admin.email);
    if (existing) {
      if (!existing.isAdmin || !existing.approved) {
        await this.users.promoteToAdmin(existing.id);
        this.logger.info({ userId: existing.id }, 'bootstrap administrator promoted');
      }
      return;
    }
    const base = usernameBase(admin.email.split('@')[0]);
    for (let attempt = 0; attempt < MAX_USERNAME_ATTEMPTS; attempt++) {
      try {
        const user = await this.users.create({
          name: admin.name,
          username: usernameCandidate(base, attempt),
          email: admin.email,
          password: admin.password,
          role: 'teacher',
          approved: true,
          isAdmin: true,
        });
        this.logger.info({ userId: user.id }, 'bootstrap administrator created');
        return;
      } catch (error) {
        if (!(error instanceof AccountTakenError)) throw error;
        // Another replica created it meanwhile: make sure it is an approved admin, and stop.
        if (error.field === 'email') return this.bootstrapAdmin(admin);
      }
    }
    throw new Error('Could not find a free username for the bootstrap administrator');
  }
}
