// npm run by a test, as a person runs it: the suite itself may run under `npm run`.

/**
 * The environment for an npm a test runs as a person would run it: without the settings an outer
 * npm passes down to the suite (`npm run -s` passes `npm_config_loglevel=silent`, and the npm run
 * inside said nothing at all), and without the prompts and network asks a test has no use for.
 */
export function npmAsRun(more: Record<string, string> = {}): NodeJS.ProcessEnv {
  const outer = Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_'));
  return { ...Object.fromEntries(outer), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...more };
}
