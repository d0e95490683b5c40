// The "new version" bar: shown once a new service worker is waiting; 刷新 activates it and reloads the page.
// Plain DOM so it appears over any screen (and over the boot view) without a place in the React tree.
import { zhCN } from '../i18n/zh-CN.ts'
import './update-prompt.css'

export const showUpdatePrompt = (reload: () => Promise<void> | void): void => {
  if (document.querySelector('.update-prompt')) return
  const bar = document.createElement('div')
  bar.className = 'update-prompt'
  bar.setAttribute('role', 'status')
  bar.dataset.testid = 'update-prompt'
  const text = document.createElement('span')
  text.textContent = zhCN.shell.updateAvailable
  const refresh = document.createElement('button')
  refresh.type = 'button'
  refresh.className = 'update-prompt-refresh'
  refresh.dataset.testid = 'update-prompt-refresh'
  refresh.textContent = zhCN.shell.refresh
  refresh.addEventListener('click', () => {
    refresh.disabled = true
    void reload()
  })
  const later = document.createElement('button')
  later.type = 'button'
  later.className = 'update-prompt-later'
  later.textContent = zhCN.shell.later
  later.addEventListener('click', () => bar.remove())
  bar.append(text, refresh, later)
  document.body.append(bar)
}
