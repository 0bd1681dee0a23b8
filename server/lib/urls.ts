/** Public URL path of a stored upload. */
export const uploadUrl = (fileName: string | null | undefined): string | null => (fileName ? `/uploads/${fileName}` : null);
