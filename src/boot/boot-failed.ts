// The page when the boot fails (the core or the app did not load): plain DOM, since React may be what failed to load.
import { zhCN } from '../i18n/zh-CN.ts'

export const showBootFailed = (): void => {
  const screen = document.createElement('div')
  screen.className = 'boot'
  screen.dataset.testid = 'boot-failed'
  const state = document.createElement('div')
  state.className = 'center-state'
  const message = document.createElement('p')
  message.textContent = zhCN.app.bootFailed
  const retry = document.createElement('button')
  retry.type = 'button'
  retry.textContent = zhCN.app.retry
  retry.addEventListener('click', () => window.location.reload())
  state.append(message, retry)
  screen.append(state)
  document.getElementById('app')!.replaceChildren(screen)
}
