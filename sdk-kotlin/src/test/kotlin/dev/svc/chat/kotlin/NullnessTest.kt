package dev.svc.chat.kotlin

import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import org.jetbrains.kotlin.cli.common.ExitCode
import org.jetbrains.kotlin.cli.jvm.K2JVMCompiler
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

/**
 * The SDK's JSpecify annotations as the Kotlin compiler reads them: it compiles small sources against sdk-core
 * with kotlin-compiler-embeddable (the version of the build's Kotlin) and expects the nullness errors.
 */
class NullnessTest {
  @Test
  fun `Kotlin refuses null where the SDK wants a value and a nullable result where it wants one`(@TempDir dir: Path) {
    val fine = compile(dir.resolve("fine"), """
      import dev.svc.chat.*
      fun send(client: ChatClient, part: MessagePart, room: Room) {
        client.sendText("r1", "hi")
        val text: String? = part.text()
        val name: String = room.name() ?: "unnamed"
        val id: String = room.id()
        println(listOf(text, name, id))
      }
    """)
    assertEquals(ExitCode.OK, fine.code, fine.output)

    val wrong = compile(dir.resolve("wrong"), """
      import dev.svc.chat.*
      fun send(client: ChatClient, part: MessagePart, options: SvcOptions) {
        client.sendText("r1", null)
        val text: String = part.text()
        val executor: java.util.concurrent.Executor = options.callbackExecutor()
        println(listOf(text, executor))
      }
    """)
    assertEquals(ExitCode.COMPILATION_ERROR, wrong.code, wrong.output)
    assertTrue(wrong.output.contains("wrong.kt:3:25: error: null cannot be a value of a non-null type"),
      "sendText(room, null) is refused:\n${wrong.output}")
    assertTrue(wrong.output.contains("wrong.kt:4:22: error: initializer type mismatch"),
      "MessagePart.text() is String?:\n${wrong.output}")
    assertTrue(wrong.output.contains("wrong.kt:5:49: error: initializer type mismatch"),
      "SvcOptions.callbackExecutor() is nullable:\n${wrong.output}")
  }

  private class Result(val code: ExitCode, val output: String)

  private fun compile(dir: Path, source: String): Result {
    Files.createDirectories(dir)
    val name = dir.fileName.toString().replaceFirstChar { it.uppercase() } + ".kt"
    val file = dir.resolve(name)
    Files.write(file, source.trimIndent().toByteArray())
    val out = ByteArrayOutputStream()
    val code = PrintStream(out, true, "UTF-8").use { stream ->
      K2JVMCompiler().exec(stream,
        file.toString(),
        "-d", dir.resolve("classes").toString(),
        // the test's class path holds sdk-core, JSpecify and the Kotlin standard library
        "-classpath", System.getProperty("java.class.path").split(File.pathSeparator)
          .filter { !it.contains("kotlin-compiler-embeddable") }.joinToString(File.pathSeparator),
        "-no-stdlib", "-no-reflect", "-jvm-target", "1.8", "-nowarn")
    }
    return Result(code, out.toString("UTF-8").lowercase().replace('\\', '/'))
  }
}
