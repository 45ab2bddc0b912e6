import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Which OpenID provider account (issuer + subject) signs in as which user; deleted with the user. */
@Entity({ name: 'external_identities' })
export class ExternalIdentityEntity {
  @PrimaryColumn({ type: 'text' })
  issuer!: string;

  @PrimaryColumn({ type: 'text' })
  subject!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
