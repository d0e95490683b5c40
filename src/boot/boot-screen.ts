// The boot screen (正在连接… while the tab connects to its core). index.html carries it from the start (vite.config.ts
// puts it in #app), so the first paint waits for the HTML and its CSS, not for the entry's JS (issue 12); React
// replaces it with the app.
import { app } from '../i18n/zh-CN.app.ts'

export const BOOT_SCREEN_HTML = `<div class="boot">${app.booting}</div>`
