// Jest's runtime, keeping what loading a module costs for the next test files of the same worker process.
//
// Jest gives every test file a fresh module registry, so each file loads Nest, TypeORM and the apps again: in a
// profile of the whole suite that loading was about a quarter of its CPU time. The modules still run anew in each
// file (nothing of one file's module state reaches another); what is kept is what does not depend on the file:
//  - V8's compiled code of a module (vm.compileFunction's cachedData), used only for the same source text;
//  - the transformed source of a module;
//  - where `require(to)` from module `from` leads, and whether a moduleNameMapper entry stands in for it.
// All of it holds for one test run (jest/run-directory.ts names the run): a new run, as in watch mode, starts
// afresh, and without a run folder Jest runs as it is. The hooks sit on Jest 30's runtime internals; where those
// are not as expected, Jest runs as it is too.
const { compileFunction, SyntheticModule } = require('node:vm');
const Runtime = require('jest-runtime').default;

/** The run's folder, as jest/run-directory.ts names it (this file is loaded by Node itself, not through Jest). */
const runDirectory = () => process.env.BACK_OFFICE_TEST_RUN_DIR || undefined;

/** A map Jest may clear between test files without losing what it holds: it holds for the whole run. */
class RunLongMap extends Map {
  clear() {}
  forgetAll() {
    super.clear();
  }
}

/** filename → the source V8 compiled and the code cache it made. */
const compiled = new RunLongMap();
/** filename and transform options → the transformed file Jest made. */
const transformed = new RunLongMap();
/** `from` and `to` → the resolved path (Jest's own per-file cache, kept for the run). */
const resolved = new RunLongMap();
/** `from` and `to` → Jest's answer: the moduleNameMapper (or manual mock) module standing in for it, if any. */
const mapped = new RunLongMap();
let cachedRun;

/** Whether this run keeps what it loads; a new run forgets what the last one kept. */
function cachingFor(run) {
  if (run !== cachedRun) {
    for (const cache of [compiled, transformed, resolved, mapped]) cache.forgetAll();
    cachedRun = run;
  }
  return run !== undefined;
}

class WorkerCachedRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    if (!cachingFor(runDirectory())) return;
    const { executor, transformCache, _resolution: resolution } = this;
    if (executor && typeof executor.compile === 'function') keepCompiledCode(executor, this._environment, resolution);
    if (transformCache && transformCache.transforms instanceof Map && transformCache.sourceMaps instanceof Map)
      keepTransforms(transformCache);
    if (resolution && resolution.cjsCache instanceof Map) resolution.cjsCache = resolved;
    if (resolution && typeof resolution.getCjsMockModule === 'function') keepMockLookups(resolution);
  }
}

function keepCompiledCode(executor, environment, resolution) {
  const jestCompile = executor.compile.bind(executor);
  executor.compile = (source, filename) => {
    const context = environment.getVmContext();
    // core modules keep Jest's own naming; errors go through Jest's path, which explains them
    if (context == null || resolution.isCoreModule(filename)) return jestCompile(source, filename);
    try {
      return compileWithCache(executor, source, filename, context);
    } catch {
      return jestCompile(source, filename);
    }
  };
}

function compileWithCache(executor, source, filename, context) {
  const known = compiled.get(filename);
  const cachedData = known && known.source === source ? known.data : undefined;
  const fn = compileFunction(source, executor.injectedModuleParameters, {
    filename,
    parsingContext: context,
    cachedData,
    produceCachedData: cachedData === undefined,
    // as Jest's own compile: import() of a CommonJS module goes through Jest's module loader
    importModuleDynamically: (specifier, _fn, attributes, phase) => {
      if (typeof SyntheticModule !== 'function')
        throw new Error(
          'You need to run with a version of node that supports ES Modules in the VM API. See https://jestjs.io/docs/ecmascript-modules',
        );
      return executor.dynamicImport(specifier, filename, context, attributes, phase);
    },
  });
  if (cachedData === undefined && fn.cachedDataProduced) compiled.set(filename, { source, data: fn.cachedData });
  else if (cachedData !== undefined && fn.cachedDataRejected) compiled.delete(filename);
  return fn;
}

function keepTransforms(cache) {
  const jestTransform = cache.transform.bind(cache);
  cache.transform = (filename, options) => {
    if (options && options.isInternalModule) return jestTransform(filename, options);
    const key = `${filename}\0${JSON.stringify(options ?? null)}`;
    let file = transformed.get(key);
    if (!file) {
      jestTransform(filename, options);
      file = cache.transforms.get(filename);
      if (!file) throw new Error(`Jest kept no transform of ${filename}`);
      transformed.set(key, file);
    }
    // as Jest records a transform: stack traces map through its source map
    cache.transforms.set(filename, file);
    if (file.sourceMapPath) cache.sourceMaps.set(filename, file.sourceMapPath);
    return file.code;
  };
}

function keepMockLookups(resolution) {
  const jestLookup = resolution.getCjsMockModule.bind(resolution);
  resolution.getCjsMockModule = (from, moduleName) => {
    const key = `${from}\0${moduleName}`;
    let lookup = mapped.get(key);
    if (!lookup) mapped.set(key, (lookup = { module: jestLookup(from, moduleName) }));
    return lookup.module;
  };
}

module.exports = WorkerCachedRuntime;
