import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from './password-hasher.service';
import { UserEntity } from './user.entity';
import { UsersController } from './users.controller';
import { UsersListResponder } from './users-list.responder';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  // UsersListResponder answers on the bus (@MessagePattern), run by the platform's bus transport.
  controllers: [UsersController, UsersListResponder],
  providers: [UsersService, PasswordHasher],
  exports: [UsersService, PasswordHasher],
})
export class UsersModule {}
