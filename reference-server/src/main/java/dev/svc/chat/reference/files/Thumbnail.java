package dev.svc.chat.reference.files;

/**
 * A generated thumbnail, kept once made.
 *
 * @param contentType {@code image/jpeg}, or {@code image/png} for an image with transparency
 * @param bytes the encoded image
 */
public record Thumbnail(String contentType, byte[] bytes) {
}
