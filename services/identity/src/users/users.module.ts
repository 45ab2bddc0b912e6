import { Module } from '@nestjs/common';
import { AuditLogRepository } from '../admin/audit-log.repository';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from './password-hasher.service';
import { UserEntity } from './user.entity';
import { UsersController } from './users.controller';
import { UsersListResponder } from './users-list.responder';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  // UsersListResponder answers on the bus (@MessagePattern), run by the platform's bus transport.
  controllers: [UsersController, UsersListResponder],
  providers: [UsersService, UsersRepository, PasswordHasher, AuditLogRepository],
  exports: [UsersService, UsersRepository, PasswordHasher, AuditLogRepository],
})
export class UsersModule {}
