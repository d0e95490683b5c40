// Strings of file uploads (the avatar), `zhCN.files` (zh-CN.sections.ts).
export const filesZhCN = {
  changeAvatar: '更换头像',
  avatarType: '仅支持 JPG、PNG、WebP 格式的图片',
  avatarEmpty: '图片内容为空',
  avatarSize: '图片不能超过2MB',
  uploading: (percent: number) => `正在上传 ${percent}%`,
  uploadFailed: '上传失败，请稍后重试',
  uploadTimeout: '上传超时，请检查网络后重试',
  avatarSaved: '头像已更新',
} as const
