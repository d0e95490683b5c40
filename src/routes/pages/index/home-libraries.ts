// The home's libraries (antd-mobile's components with react-spring and @use-gesture under them), imported by the
// home's route a task before the screen (index.tsx): their module evaluation and the screen's own are two tasks, not
// one (issue 24, blocking time). The build puts what this reaches, and only the home needs, in a chunk of its own
// (vite.config.ts, homeChunk). A component the home uses that is missing here still works: it stays in the screen's
// chunk and evaluates with it.
export { ActionSheet, Badge, Button, Dialog, ErrorBlock, List, NoticeBar, Picker, Popup, PullToRefresh, Skeleton, Toast } from 'antd-mobile'
