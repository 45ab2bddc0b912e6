import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { LoginThrottle } from './login-throttle.service';
import { DemoOnlyGuard } from './demo-only.guard';
import { QuickLoginController } from './quick-login.controller';
import { SessionCookies } from './session-cookies.service';
import { RevokedSessionsRepository } from './revoked-sessions.repository';
import { SessionStateWarmer } from './session-state.warmer';

@Module({
  imports: [UsersModule],
  controllers: [AuthController, QuickLoginController],
  providers: [
    AuthService,
    LoginThrottle,
    SessionCookies,
    SessionStateWarmer,
    RevokedSessionsRepository,
    DemoOnlyGuard,
  ],
  exports: [SessionCookies],
})
export class AuthModule {}
