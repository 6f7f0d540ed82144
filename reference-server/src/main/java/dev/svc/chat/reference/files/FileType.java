package dev.svc.chat.reference.files;

/**
 * The type the server stores for a file, from its declared type and its bytes.
 *
 * @param contentType the stored content type
 * @param width an image's width, else null
 * @param height an image's height, else null
 */
record FileType(String contentType, Integer width, Integer height) {
}
