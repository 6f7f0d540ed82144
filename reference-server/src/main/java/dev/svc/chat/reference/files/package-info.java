/**
 * Files and images (contract section 9): tus 1.0.0 resumable uploads at {@code /v1/uploads}, downloads and
 * thumbnails at {@code /v1/files/}, the {@code file} parts of messages filled in from the stored bytes, who may
 * read a file, and the storage of the bytes (memory, the data directory, PostgreSQL).
 */
package dev.svc.chat.reference.files;
