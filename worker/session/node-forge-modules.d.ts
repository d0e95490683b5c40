// node-forge's per-feature modules share one namespace object (the package's default export); importing only the
// modules RSA encryption needs keeps the login chunk small. @types/node-forge types the whole package only.
declare module 'node-forge/lib/forge' {
  import forge from 'node-forge'
  export default forge
}
declare module 'node-forge/lib/asn1'
declare module 'node-forge/lib/rsa'
declare module 'node-forge/lib/util'
