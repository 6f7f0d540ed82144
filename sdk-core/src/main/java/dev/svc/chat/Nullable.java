package dev.svc.chat;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter, return value or field that may be {@code null}.
 *
 * @deprecated The SDK now uses JSpecify: its packages are {@link org.jspecify.annotations.NullMarked} and
 *     what may be {@code null} is annotated {@link org.jspecify.annotations.Nullable}, which the Kotlin
 *     compiler and nullness checkers read. This annotation means nothing to them; it is no longer used by
 *     the SDK and will be removed before 1.0.
 */
@Deprecated
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.PARAMETER, ElementType.FIELD, ElementType.LOCAL_VARIABLE})
public @interface Nullable {
}
