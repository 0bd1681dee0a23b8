/** Public URL path of a stored upload. */
export const uploadUrl = (fileName: string | null | undefined): string | null => (fileName ? `/uploads/${fileName}` : null);

/**
 * The name of every stored upload: the SHA-256 of its bytes and an extension. A name from the
 * database is checked against it before any file operation (the sweep, a restore), so a crafted
 * row such as '../../etc/passwd' never becomes a path (issue 27).
 */
export const UPLOAD_FILE_NAME = /^[0-9a-f]{64}\.[a-z0-9]{2,5}$/;
export const isUploadFileName = (name: unknown): name is string => typeof name === 'string' && UPLOAD_FILE_NAME.test(name);
