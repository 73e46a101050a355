// npm run by a test, as a person runs it: the suite itself may run under `npm run`.

/**
 * The environment for an npm a test runs as a person would run it: without what an outer `npm
 * run` adds for its script (`npm run -s` passes `npm_config_loglevel=silent`, and the npm run
 * inside said nothing at all; the script's own lifecycle and package names), the person's own
 * settings kept (a registry, a token), and without the prompts and network asks a test has no use
 * for.
 */
export function npmAsRun(more: Record<string, string> = {}): NodeJS.ProcessEnv {
  const outer = Object.entries(process.env).filter(([name]) => !/^npm_(config_loglevel$|lifecycle_|package_|command$)/i.test(name));
  return { ...Object.fromEntries(outer), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...more };
}
