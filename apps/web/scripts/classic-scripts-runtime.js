// Runs in the browser, in the start script, after SystemJS's loader and before the entry's import
// (scripts/classic-scripts-plugin.ts puts it there and calls it). Plain JS on purpose: the plugin copies
// this text without its comment lines and line breaks (so every statement ends with a semicolon, and
// no comment shares a line with code).
/* global System */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the start script
function adaptSystemJs() {
  const prototype = System.constructor.prototype;
  const createContext = prototype.createContext;
  // `import.meta.resolve` answers at once, as browsers do today; SystemJS's answers with a promise (an
  // older draft), and Vite's preload helper builds a URL from its answer.
  prototype.createContext = function (parentId) {
    const context = createContext.call(this, parentId);
    context.resolve = (id, parentUrl) => this.resolve(id, parentUrl || parentId);
    return context;
  };
}
