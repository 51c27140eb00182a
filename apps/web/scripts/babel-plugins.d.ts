// The two Babel plugins the classic-scripts build uses ship no types of their own.
declare module '@babel/plugin-transform-dynamic-import' {
  import type { PluginItem } from '@babel/core';
  const plugin: PluginItem;
  export default plugin;
}
declare module '@babel/plugin-transform-modules-systemjs' {
  import type { PluginItem } from '@babel/core';
  const plugin: PluginItem;
  export default plugin;
}
