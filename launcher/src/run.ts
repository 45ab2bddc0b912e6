import 'reflect-metadata';
import { ConfigError, PORT_TAKEN_EXIT_CODE, createLogger } from '@district/nest-common';
import { GatewayConfigError } from '@district/gateway';
import { launch } from './launch';
import { loadLauncherConfig } from './launcher.config';

/** Starts what `env.TARGET` names and stops it on SIGTERM/SIGINT (main.ts has already applied its node flags). */
export async function run(env: NodeJS.ProcessEnv): Promise<void> {
  // The logger takes the checked LOG_LEVEL; until it exists, a configuration problem is printed as the list it is.
  let logger = createLogger('launcher');
  let port: number | undefined;
  let launched: Awaited<ReturnType<typeof launch>>;
  try {
    const config = loadLauncherConfig(env);
    logger = createLogger('launcher', config.LOG_LEVEL);
    port = config.PORT;
    launched = await launch(env, logger);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof GatewayConfigError) {
      console.error(error.message);
    } else if ((error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE') {
      // Its own exit code: the cluster launcher stops instead of restarting a process that cannot get its port.
      logger.fatal({ err: error, port }, `port ${port ?? ''} is taken by another program`);
      process.exit(PORT_TAKEN_EXIT_CODE);
    } else {
      logger.fatal({ err: error }, 'start failed');
    }
    process.exit(1);
  }

  if (launched.url) printBanner(launched.url, launched.config.demo, launched.config.DEMO_PASSWORD);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15000);
    force.unref();
    await launched.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

function printBanner(url: string, demo: boolean, demoPassword: string): void {
  const lines = [``, `  District Learning is running at ${url}`, ``];
  if (demo) {
    lines.push(
      "  Demo mode is on: passwordless demo sign-in (the chat room's teacher and student shortcuts) is enabled.",
    );
    lines.push('  Turn it off with DEMO=false before real pupils use this site.');
    lines.push('');
    lines.push(`  Demo sign-ins (password: ${demoPassword}):`);
    for (const [email, what] of [
      ['admin@demo.school', 'administrator'],
      ['teacher@demo.school', 'teacher'],
      ['student@demo.school', 'student'],
      ['pending@demo.school', 'student awaiting approval'],
    ]) {
      lines.push(`    ${email.padEnd(22)} ${what}`);
    }
    lines.push('');
  }
  console.log(lines.join('\n'));
}
