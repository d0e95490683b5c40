// The interface kit's defaults of §9, in one place (the upload and album counts live with the file rules in
// worker/protocol/files.ts). kit.css holds the z-index order they imply.
export const POPUP_Z_INDEX = 10075
export const BACK_TO_TOP = { showAfterPx: 400, durationMs: 100 } as const
export const SWIPER_INTERVAL_MS = 3000
export const TEXTAREA_MAX_LENGTH = 140
