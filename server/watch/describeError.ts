// What the system said, in words a reader can act on, for any store's files.

/** A file system error in a few words: permission denied, does not exist, not a folder, or its code. */
export function describeError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'does not exist';
    case 'ENOTDIR':
      return 'not a folder';
    default:
      return error.code ?? error.message;
  }
}
