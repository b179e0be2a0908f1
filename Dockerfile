# Build stage: the same Maven build as on a developer machine (it also bakes the sample snapshot).
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml schema.graphqls ./
COPY src ./src
RUN mvn -B -q -DskipTests package

# Run stage: a JRE and the one jar. The embedded DynamoDB Local needs glibc on x86_64 (sqlite4java);
# point DYNAMODB_ENDPOINT at DynamoDB to run anywhere else.
FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 moviegraph
WORKDIR /app
COPY --from=build /src/target/moviegraph.jar /app/moviegraph.jar
USER moviegraph
ENV PORT=8080
EXPOSE 8080
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/moviegraph.jar"]
