// The consumer check's verdict, after the consumer's build passed (compiled its Java and Kotlin, ran its test):
// fails on a POM Maven found invalid, a resolved version the BOM does not name, a run-time library the BOM does
// not pin, a version other than the one the reactor build tested with, a JUnit other than the oldest the test kit
// supports, or a test that did not run.
// Variables from the invoker plugin: basedir, localRepositoryPath, and the pom's scriptVariables.
def problems = []

// 1. Invalid POMs. Maven only warns ("The POM for ... is invalid, transitive dependencies (if any) will not be
//    available") and goes on without that artifact's dependencies.
//    A missing POM counts only for what the user's project depends on (checked once the dependencies are
//    listed, below): on a fresh machine Maven also looks up the POMs of its default plugins and their own
//    dependencies (maven-clean-plugin 2.5, ...), which the build never needed and which are no artifact of ours.
def log = new File(basedir, 'build.log').text
def missingPoms = [] // [key: group:artifact, version:, line:]
log.eachLine { line ->
  def missing = line =~ /The POM for ([^: ]+):([^: ]+):[^: ]+:([^: ]+) is missing/
  if (missing.find()) {
    missingPoms << [key: missing.group(1) + ':' + missing.group(2), version: missing.group(3), line: line.trim()]
  } else if (line =~ /The POM for .* is invalid/ || line.contains("'dependencies.dependency.version'")) {
    problems << "invalid POM: " + line.trim()
  }
}

// 2. What the BOM names, read from the BOM this build installed.
def bomFile = new File(localRepositoryPath, "dev/svc/chat/svc-chat-bom/${projectVersion}/svc-chat-bom-${projectVersion}.pom")
def bom = new groovy.xml.XmlSlurper().parse(bomFile)
def props = ['project.version': bom.version.text()]
bom.properties.'*'.each { props[it.name()] = it.text() }
def interpolate = { String s -> s.replaceAll(/\$\{([^}]+)\}/) { all, key -> props.containsKey(key) ? props[key] : all } }
def named = [:]
bom.dependencyManagement.dependencies.dependency.each { named["${it.groupId}:${it.artifactId}".toString()] = interpolate(it.version.text()) }

// 3. What the consumer resolved, and what the reactor build resolved for the same artifacts (dependency:list,
//    "group:artifact:type[:classifier]:version:scope").
def list = { File file ->
  def found = []
  file.eachLine { line ->
    def parts = line.trim().split(' ')[0].split(':')
    if (parts.length >= 5) found << [key: parts[0] + ':' + parts[1], version: parts[-2], scope: parts[-1]]
  }
  found
}
def listed = new File(basedir, 'target/dependencies.txt')
def resolved = listed.exists() ? list(listed) : []
if (!listed.exists()) problems << "the consumer's dependencies could not be listed (see build.log)"
missingPoms.findAll { m -> m.key.startsWith('dev.svc.chat:') || resolved.any { it.key == m.key && it.version == m.version } }
    .each { problems << "invalid POM: " + it.line }
// the consumer's own build failed: its first errors (an unresolved class, a failed test)
log.readLines().findAll { it.startsWith('[ERROR]') && !it.trim().equals('[ERROR]') }.take(8).each { problems << it }
def tested = list(new File(buildDependencies)).collectEntries { [(it.key): it.version] }
// JUnit is the user's (checked below), and so are JUnit's own dependencies
def junitOwned = { String key -> key.startsWith('org.junit.') || key.startsWith('org.opentest4j:') || key.startsWith('org.apiguardian:') }
// the user's own choices, left to them: the SLF4J API (sdk-slf4j works with 1.7 and 2.x) and their backend
def usersChoice = ['org.slf4j:slf4j-api', 'org.slf4j:slf4j-jdk14']
resolved.each { d ->
  def want = named[d.key]
  if (want != null && want != d.version) {
    problems << "${d.key}:${d.version} (${d.scope}) resolved, the BOM names ${want}"
  } else if (want == null && d.scope in ['compile', 'runtime'] && !(d.key in usersChoice)) {
    problems << "${d.key}:${d.version} (${d.scope}) is on the run-time class path but the BOM does not pin it"
  }
  if (tested[d.key] != null && tested[d.key] != d.version && !junitOwned(d.key)) {
    problems << "${d.key}:${d.version} (${d.scope}) resolved, the build tested with ${tested[d.key]}"
  }
  if (d.key.startsWith('org.junit.jupiter:') && d.version != junitOldest
      || d.key.startsWith('org.junit.platform:') && d.version != junitPlatformOldest) {
    problems << "${d.key}:${d.version} resolved: the user asked for JUnit ${junitOldest} (platform ${junitPlatformOldest}); something forces another JUnit"
  }
}
publishedArtifacts.split(',').each { a ->
  if (!resolved.any { it.key == 'dev.svc.chat:' + a }) problems << "dev.svc.chat:${a} was not resolved"
}

// 4. The test kit test ran, on the oldest JUnit.
def report = new File(basedir, 'target/surefire-reports/TEST-example.consumer.TestKitTest.xml')
if (!report.exists()) {
  problems << "no test report: the test kit test did not run"
} else {
  def suite = new groovy.xml.XmlSlurper().parse(report)
  if (suite.@tests.text() != '1' || suite.@failures.text() != '0' || suite.@errors.text() != '0') {
    problems << "TestKitTest: tests=${suite.@tests} failures=${suite.@failures} errors=${suite.@errors}"
  }
}

if (problems) {
  println "[consumer-check] FAILED, what a user's project gets from the published artifacts:"
  problems.unique().each { println "[consumer-check]   " + it }
  throw new IllegalStateException("consumer check: " + problems.size() + " problem(s), see above")
}
println "[consumer-check] OK: ${resolved.size()} dependencies resolved as the BOM names them, JUnit ${junitOldest}, no invalid POM"
return true
