// Boot of a tab: entry URL rules, connect to the core, then load the app (app.tsx) and paint from the core's
// snapshot. The entry holds only what starts the core; React and the app evaluate after it, each in a task of its own
// (on a slow phone one task for all of it blocks input for a few hundred ms while the page loads).
// the cascade's order matters: antd-mobile's global variables first, the app's theme (app.css) over them
import 'antd-mobile/es/global'
import './ui/app.css'
// the app's own antd-mobile styles (RouterNotReady's button), in the entry's CSS that index.html inlines: as the app
// chunk's stylesheet they would be one more request before the first screen renders
import 'antd-mobile/es/components/button/button.css'
import 'antd-mobile/es/components/dot-loading/dot-loading.css'
import { connectCore } from './core/connect.ts'
import { entryRedirect, resolveChannelCode, routeFromHash } from './boot/entry-url.ts'
import { nextTask } from './boot/next-task.ts'
import { showBootFailed } from './boot/boot-failed.ts'
import { installShell } from './ui/shell.ts'

// boot:* marks: where a reload's time goes (bench/parts/cold-start.ts reads them; DevTools shows them)
performance.mark('boot:entry')
installShell()
const redirectTo = entryRedirect(window.location)
if (redirectTo !== null) window.history.replaceState(null, '', redirectTo)

const boot = async (): Promise<void> => {
  const start = routeFromHash(window.location.hash)
  // served from the tab's storage that index.html's first script loaded (src/boot/early-core.ts): no round trip to
  // the browser here, so it shares the core's start's task
  const channelCode = resolveChannelCode(window.location, sessionStorage)
  const connected = connectCore({
    channelCode,
    route: { path: start.path, search: start.search, viewerCardId: null, oneClickRepair: false },
    visible: document.visibilityState === 'visible',
  }).then((core) => {
    performance.mark('boot:core-ready')
    return core
  })
  // React and the app evaluate while the core answers (index.html preloads their chunks), each in a task of its own:
  // an import of a module already fetched evaluates in the task that asked for it
  await nextTask()
  await import('react-dom/client')
  performance.mark('boot:react')
  // the router library is most of the app's script (its own chunk): evaluated in a task apart from the app's
  await nextTask()
  await import('./boot/router-lib.ts')
  performance.mark('boot:router')
  await nextTask()
  const app = await import('./app.tsx')
  performance.mark('boot:app')
  app.preloadScreen(start.path)
  await app.startApp(await connected)
  performance.mark('boot:rendered')
}

// the entry's module evaluation and the boot are separate tasks
nextTask().then(boot).catch(showBootFailed)
