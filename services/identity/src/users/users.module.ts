import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from './password-hasher.service';
import { UserEntity } from './user.entity';
import { UsersController } from './users.controller';
import { UsersListResponder } from './users-list.responder';
import { UsersPageController } from './users-page.controller';
import { SchoolAdministratorGuard } from './school-administrator.guard';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), AuditModule],
  // UsersListResponder answers on the bus (@MessagePattern), run by the platform's bus transport.
  controllers: [UsersController, UsersPageController, UsersListResponder],
  providers: [UsersService, UsersRepository, PasswordHasher, SchoolAdministratorGuard],
  exports: [UsersService, UsersRepository, PasswordHasher, AuditModule],
})
export class UsersModule {}
