import { Injectable, type OnModuleInit } from '@nestjs/common';
import * as argon2 from 'argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

const DUMMY_PASSWORD = 'no account has this password';

/** Hashes and checks passwords. Only hashes are stored; no password is ever logged or returned. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash?: Promise<string>;

  /** Made in the background at start, so not even the first unknown-email sign-in takes longer. */
  onModuleInit(): void {
    this.dummyHash = this.hash(DUMMY_PASSWORD);
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /**
   * Spends the same time as a real check when there is no account (or no password) to check against,
   * so response times do not reveal which emails are registered.
   */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash(DUMMY_PASSWORD);
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
