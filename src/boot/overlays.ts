// The imperative overlays the core's effect events use, split into their own chunk.
export { Dialog, Toast } from 'antd-mobile'
