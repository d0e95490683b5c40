// The boot screen (正在连接… while the tab connects to its core). index.html carries it from the start (vite.config.ts
// puts it in #app), so the first paint waits for the HTML and its CSS, not for the entry's JS (issue 12); React
// replaces it with the app, and shows it again while the first screen mounts (src/router/first-screen.tsx).
import { app } from '../i18n/zh-CN.app.ts'

export const BOOT_SCREEN = { className: 'boot', text: app.booting } as const

export const BOOT_SCREEN_HTML = `<div class="${BOOT_SCREEN.className}">${BOOT_SCREEN.text}</div>`
