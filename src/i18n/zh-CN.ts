// Every user-facing string of the tab, in Chinese (product-spec.md and decisions.md give the exact texts where cited),
// read as `zhCN.<section>.<key>`. Each section lives in a module of its own and `zhCN` is their namespace, so the
// bundler resolves every `zhCN.section` to its module and a screen's chunk carries only the sections it reads (issue 12:
// the login screen does not download the purchase screens' strings). Read sections by name, never `zhCN[name]` or
// the namespace as a whole: that would bring every section back into the first chunk.
export * as zhCN from './zh-CN.sections.ts'
