# The gateway's image. Build the jar first (mvn -B -DskipTests package), then:
#   docker build -t moviegraph .        (or podman build; deploy/image/build.sh builds it with no daemon
#                                        and no registry, on a JRE base it makes from a local JDK 25)
# The JRE is a build argument: Temurin 25's image by default. The jar is built for Java 17 and runs on it.
ARG JRE_IMAGE=eclipse-temurin:25-jre
FROM ${JRE_IMAGE}
WORKDIR /app
COPY target/moviegraph.jar /app/moviegraph.jar
# JDK 25's AOT cache (JEP 483, 514, 515): the classes loaded and linked and the methods' profiles of a
# training run, the warm-up's queries on the embedded sample, so a new task starts and reaches its speed
# sooner. The run exits by itself and the JVM writes the cache; a cache that does not match the JVM or
# the jar is ignored (the server then starts as without it).
RUN ["java", "-XX:AOTCacheOutput=/app/moviegraph.aot", "-XX:-UsePerfData", "-Xlog:aot=error", "-Xlog:cds=error", "-jar", "/app/moviegraph.jar", "warm-up"]
USER 10001:10001
ENV PORT=8080
EXPOSE 8080
ENTRYPOINT ["java", "-XX:AOTCache=/app/moviegraph.aot", "-Xlog:aot=error", "-Xlog:cds=error", "-XX:MaxRAMPercentage=75", "-jar", "/app/moviegraph.jar"]
