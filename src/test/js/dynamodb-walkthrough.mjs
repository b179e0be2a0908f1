// The AWS SDK for JavaScript v3 against a DynamoDB endpoint, used as its users use it: the low-level
// DynamoDBClient for tables, streams' DynamoDBStreamsClient, DynamoDBDocumentClient (lib-dynamodb) for items,
// the low-level client again for PartiQL. One walk through a table's life; every step asserts the answer as
// DynamoDB gives it, and the first divergence ends the script with exit code 1 and a message naming the step.
// On success it prints one JSON line: the steps it passed.
//
// usage: node dynamodb-walkthrough.mjs http://127.0.0.1:PORT [TABLE_NAME]
import assert from 'node:assert/strict';

import {
  BatchExecuteStatementCommand,
  ConditionalCheckFailedException,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DuplicateItemException,
  DynamoDBClient,
  ExecuteStatementCommand,
  ExecuteTransactionCommand,
  ListTablesCommand,
  ResourceNotFoundException,
  TransactionCanceledException,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
} from '@aws-sdk/client-dynamodb-streams';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  paginateQuery,
} from '@aws-sdk/lib-dynamodb';

const [endpoint, tableArgument] = process.argv.slice(2);
if (!endpoint) {
  console.error('usage: node dynamodb-walkthrough.mjs http://127.0.0.1:PORT [TABLE_NAME]');
  process.exit(2);
}
const table = tableArgument ?? `sdk-walkthrough-${Date.now().toString(36)}`;

// Dummy credentials and a region, as for DynamoDB Local; one attempt per call, so every answer is the
// endpoint's first one and a retried error cannot hide.
const config = {
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'walkthrough', secretAccessKey: 'walkthrough' },
  maxAttempts: 1,
};
const dynamo = new DynamoDBClient(config);
const streams = new DynamoDBStreamsClient(config);
const documents = DynamoDBDocumentClient.from(dynamo);

// What the stream must show, in order: one group per write call. The records of one BatchWrite or one
// transaction may come in any order among themselves (DynamoDB orders a stream per item, not across items).
const expectedStream = [];
const written = (...events) => expectedStream.push(events.map(([eventName, pk, sk]) => ({ eventName, pk, sk })));

const passed = [];
let current = '';

async function step(name, body) {
  current = name;
  await body();
  passed.push(name);
}

/** Asserts that `call` is rejected with an instance of the SDK's class `type`, and returns the error. */
async function rejectsWith(type, call) {
  let error;
  await assert.rejects(call, (thrown) => {
    error = thrown;
    return true;
  });
  assert.ok(error instanceof type,
    `expected an instance of ${type.name}, got ${error?.name}: ${error?.message}`);
  assert.equal(error.name, type.name);
  assert.equal(error.$metadata.httpStatusCode, 400);
  return error;
}

const saga = [1986, 1992, 1997, 2012, 2017];

async function walkthrough() {
  let streamArn;

  await step('CreateTable with a stream and a global secondary index', async () => {
    const created = await dynamo.send(new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'N' },
        { AttributeName: 'genre', AttributeType: 'S' },
        { AttributeName: 'year', AttributeType: 'N' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      GlobalSecondaryIndexes: [{
        IndexName: 'byGenre',
        KeySchema: [{ AttributeName: 'genre', KeyType: 'HASH' }, { AttributeName: 'year', KeyType: 'RANGE' }],
        Projection: { ProjectionType: 'ALL' },
      }],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }));
    const description = created.TableDescription;
    assert.equal(description.TableName, table);
    assert.ok(['CREATING', 'ACTIVE'].includes(description.TableStatus), description.TableStatus);
    assert.deepEqual(description.StreamSpecification, { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    assert.match(description.LatestStreamArn, new RegExp(`^arn:aws:dynamodb:[^:]+:\\d+:table/${table}/stream/.+`));
    assert.equal(description.GlobalSecondaryIndexes.length, 1);
    assert.equal(description.GlobalSecondaryIndexes[0].IndexName, 'byGenre');
    assert.equal(description.BillingModeSummary.BillingMode, 'PAY_PER_REQUEST');
    streamArn = description.LatestStreamArn;
  });

  await step('waitUntilTableExists, then DescribeTable and ListTables', async () => {
    const waited = await waitUntilTableExists({ client: dynamo, minDelay: 1, maxDelay: 2, maxWaitTime: 30 },
      { TableName: table });
    assert.equal(waited.state, 'SUCCESS');
    const { Table: described } = await dynamo.send(new DescribeTableCommand({ TableName: table }));
    assert.equal(described.TableStatus, 'ACTIVE');
    assert.equal(described.GlobalSecondaryIndexes[0].IndexStatus, 'ACTIVE');
    assert.equal(described.LatestStreamArn, streamArn);
    assert.equal(described.ItemCount, 0);
    const listed = await dynamo.send(new ListTablesCommand({}));
    assert.ok(listed.TableNames.includes(table), `ListTables: ${listed.TableNames}`);
  });

  const alien = { pk: 'movie#1', sk: 1, title: 'Alien', genre: 'scifi', year: 1979, tags: new Set(['space', 'horror']) };

  await step('Put and Get through the document client', async () => {
    const put = await documents.send(new PutCommand({ TableName: table, Item: alien }));
    assert.equal(put.Attributes, undefined);
    written(['INSERT', 'movie#1', 1]);
    const got = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'movie#1', sk: 1 }, ConsistentRead: true }));
    assert.deepEqual(got.Item, alien);
    const missing = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'movie#0', sk: 1 } }));
    assert.equal(missing.Item, undefined);
  });

  await step('Update with a condition that holds', async () => {
    const updated = await documents.send(new UpdateCommand({
      TableName: table,
      Key: { pk: 'movie#1', sk: 1 },
      UpdateExpression: 'SET rating = :rating, #title = :title ADD #views :one DELETE tags :gone',
      ConditionExpression: 'attribute_exists(pk) AND #year = :year',
      ExpressionAttributeNames: { '#title': 'title', '#views': 'views', '#year': 'year' },
      ExpressionAttributeValues: { ':rating': 8.5, ':title': 'Alien (1979)', ':one': 1, ':year': 1979, ':gone': new Set(['horror']) },
      ReturnValues: 'ALL_NEW',
    }));
    assert.deepEqual(updated.Attributes, { ...alien, title: 'Alien (1979)', rating: 8.5, views: 1, tags: new Set(['space']) });
    written(['MODIFY', 'movie#1', 1]);
  });

  await step('Update with a condition that fails: ConditionalCheckFailedException', async () => {
    const error = await rejectsWith(ConditionalCheckFailedException, () => documents.send(new UpdateCommand({
      TableName: table,
      Key: { pk: 'movie#1', sk: 1 },
      UpdateExpression: 'SET rating = :rating',
      ConditionExpression: '#year = :year',
      ExpressionAttributeNames: { '#year': 'year' },
      ExpressionAttributeValues: { ':rating': 1, ':year': 2001 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    })));
    assert.equal(error.message, 'The conditional request failed');
    // the item as it was, in DynamoDB's own form: the document client does not convert errors
    assert.deepEqual(error.Item.rating, { N: '8.5' });
    const got = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'movie#1', sk: 1 }, ConsistentRead: true }));
    assert.equal(got.Item.rating, 8.5);
  });

  await step('BatchWrite then BatchGet', async () => {
    const batch = await documents.send(new BatchWriteCommand({
      RequestItems: {
        [table]: saga.map((year, i) => ({
          PutRequest: { Item: { pk: 'saga', sk: i + 1, title: `Part ${i + 1}`, genre: 'scifi', year } },
        })),
      },
    }));
    assert.deepEqual(batch.UnprocessedItems, {});
    written(...saga.map((_, i) => ['INSERT', 'saga', i + 1]));
    const got = await documents.send(new BatchGetCommand({
      RequestItems: {
        [table]: {
          Keys: [{ pk: 'saga', sk: 2 }, { pk: 'saga', sk: 4 }, { pk: 'saga', sk: 9 }, { pk: 'movie#1', sk: 1 }],
          ProjectionExpression: 'sk, #title',
          ExpressionAttributeNames: { '#title': 'title' },
        },
      },
    }));
    assert.deepEqual(got.UnprocessedKeys, {});
    const items = got.Responses[table].sort((a, b) => a.title.localeCompare(b.title));
    assert.deepEqual(items, [{ sk: 1, title: 'Alien (1979)' }, { sk: 2, title: 'Part 2' }, { sk: 4, title: 'Part 4' }]);
  });

  await step('Query a key condition, page by page with Limit and ExclusiveStartKey', async () => {
    const query = {
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': 'saga', ':from': 2, ':to': 5 },
      Limit: 2,
    };
    const first = await documents.send(new QueryCommand(query));
    assert.deepEqual(first.Items.map((item) => item.sk), [2, 3]);
    assert.equal(first.Count, 2);
    assert.equal(first.ScannedCount, 2);
    assert.deepEqual(first.LastEvaluatedKey, { pk: 'saga', sk: 3 });
    const second = await documents.send(new QueryCommand({ ...query, ExclusiveStartKey: first.LastEvaluatedKey }));
    assert.deepEqual(second.Items.map((item) => item.sk), [4, 5]);
    // the page filled its Limit: DynamoDB cannot know yet that nothing follows, so it gives a key
    assert.deepEqual(second.LastEvaluatedKey, { pk: 'saga', sk: 5 });
    const third = await documents.send(new QueryCommand({ ...query, ExclusiveStartKey: second.LastEvaluatedKey }));
    assert.deepEqual(third.Items, []);
    assert.equal(third.LastEvaluatedKey, undefined);

    // the same through the SDK's paginator, newest first
    const pages = [];
    for await (const page of paginateQuery({ client: documents, pageSize: 2 }, { ...query, Limit: undefined, ScanIndexForward: false })) {
      pages.push(page.Items.map((item) => item.sk));
    }
    assert.deepEqual(pages, [[5, 4], [3, 2], []]);
  });

  await step('Query the global secondary index', async () => {
    const answer = await documents.send(new QueryCommand({
      TableName: table,
      IndexName: 'byGenre',
      KeyConditionExpression: 'genre = :genre AND #year >= :year',
      ExpressionAttributeNames: { '#year': 'year' },
      ExpressionAttributeValues: { ':genre': 'scifi', ':year': 1990 },
      ScanIndexForward: false,
    }));
    assert.deepEqual(answer.Items.map((item) => [item.year, item.title]),
      [[2017, 'Part 5'], [2012, 'Part 4'], [1997, 'Part 3'], [1992, 'Part 2']]);
    const counted = await documents.send(new QueryCommand({
      TableName: table,
      IndexName: 'byGenre',
      KeyConditionExpression: 'genre = :genre',
      ExpressionAttributeValues: { ':genre': 'scifi' },
      Select: 'COUNT',
    }));
    assert.equal(counted.Count, 6);
    assert.equal(counted.Items, undefined);
  });

  await step('TransactWrite that succeeds', async () => {
    await documents.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: table, Item: { pk: 'movie#2', sk: 1, title: 'Aliens', genre: 'action', year: 1986 },
          ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: table, Key: { pk: 'saga', sk: 1 }, UpdateExpression: 'SET seen = :yes',
          ExpressionAttributeValues: { ':yes': true } } },
        { Delete: { TableName: table, Key: { pk: 'saga', sk: 5 } } },
        { ConditionCheck: { TableName: table, Key: { pk: 'movie#1', sk: 1 }, ConditionExpression: 'rating > :min',
          ExpressionAttributeValues: { ':min': 8 } } },
      ],
    }));
    written(['INSERT', 'movie#2', 1], ['MODIFY', 'saga', 1], ['REMOVE', 'saga', 5]);
    const got = await documents.send(new BatchGetCommand({
      RequestItems: { [table]: { Keys: [{ pk: 'movie#2', sk: 1 }, { pk: 'saga', sk: 1 }, { pk: 'saga', sk: 5 }] } },
    }));
    const items = got.Responses[table].sort((a, b) => a.pk.localeCompare(b.pk));
    assert.deepEqual(items.map((item) => [item.pk, item.title, item.seen]), [['movie#2', 'Aliens', undefined], ['saga', 'Part 1', true]]);
  });

  await step('TransactWrite that is cancelled: TransactionCanceledException with CancellationReasons', async () => {
    const error = await rejectsWith(TransactionCanceledException, () => documents.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: table, Item: { pk: 'movie#3', sk: 1, title: 'Alien 3' } } },
        { ConditionCheck: { TableName: table, Key: { pk: 'movie#1', sk: 1 }, ConditionExpression: 'rating < :max',
          ExpressionAttributeValues: { ':max': 5 }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
      ],
    })));
    assert.equal(error.message,
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]');
    assert.equal(error.CancellationReasons.length, 2);
    assert.deepEqual(error.CancellationReasons[0], { Code: 'None' });
    assert.equal(error.CancellationReasons[1].Code, 'ConditionalCheckFailed');
    assert.equal(error.CancellationReasons[1].Message, 'The conditional request failed');
    assert.deepEqual(error.CancellationReasons[1].Item.title, { S: 'Alien (1979)' });
    const got = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'movie#3', sk: 1 }, ConsistentRead: true }));
    assert.equal(got.Item, undefined, 'a cancelled transaction wrote nothing');
  });

  await step('Delete returning the old item', async () => {
    const deleted = await documents.send(new DeleteCommand({ TableName: table, Key: { pk: 'movie#2', sk: 1 }, ReturnValues: 'ALL_OLD' }));
    assert.equal(deleted.Attributes.title, 'Aliens');
    written(['REMOVE', 'movie#2', 1]);
  });

  await step('Stream: ListStreams, DescribeStream, GetShardIterator, GetRecords', async () => {
    const listed = await streams.send(new ListStreamsCommand({ TableName: table }));
    assert.equal(listed.Streams.length, 1);
    assert.equal(listed.Streams[0].StreamArn, streamArn);
    assert.equal(listed.Streams[0].TableName, table);
    const { StreamDescription: stream } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    assert.equal(stream.StreamStatus, 'ENABLED');
    assert.equal(stream.StreamViewType, 'NEW_AND_OLD_IMAGES');
    assert.equal(stream.TableName, table);
    assert.deepEqual(stream.KeySchema, [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }]);
    assert.ok(stream.Shards.length >= 1);

    const records = [];
    for (const shard of stream.Shards) {
      assert.ok(shard.SequenceNumberRange.StartingSequenceNumber, 'a shard has a starting sequence number');
      let { ShardIterator: iterator } = await streams.send(new GetShardIteratorCommand({
        StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON',
      }));
      // an open shard always gives a next iterator: read until a call brings nothing new
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 4 }));
        records.push(...page.Records);
        iterator = page.Records.length > 0 ? page.NextShardIterator : undefined;
      }
    }

    const seen = records.map((record) => ({
      eventName: record.eventName, pk: record.dynamodb.Keys.pk.S, sk: Number(record.dynamodb.Keys.sk.N),
    }));
    let next = 0;
    for (const group of expectedStream) {
      const sort = (events) => events.map((e) => `${e.eventName} ${e.pk} ${e.sk}`).sort();
      assert.deepEqual(sort(seen.slice(next, next + group.length)), sort(group),
        `stream records ${next}..${next + group.length - 1} of ${JSON.stringify(seen)}`);
      next += group.length;
    }
    assert.equal(seen.length, next, `no more records than the writes made: ${JSON.stringify(seen)}`);

    for (const record of records) {
      assert.equal(record.eventSource, 'aws:dynamodb');
      assert.equal(record.eventVersion, '1.1');
      assert.equal(record.dynamodb.StreamViewType, 'NEW_AND_OLD_IMAGES');
      assert.ok(record.dynamodb.SizeBytes > 0);
      assert.equal(record.dynamodb.NewImage !== undefined, record.eventName !== 'REMOVE', `NewImage of ${record.eventName}`);
      assert.equal(record.dynamodb.OldImage !== undefined, record.eventName !== 'INSERT', `OldImage of ${record.eventName}`);
    }
    const sequence = records.map((record) => BigInt(record.dynamodb.SequenceNumber));
    assert.ok(sequence.every((number, i) => i === 0 || number > sequence[i - 1]), `sequence numbers grow: ${sequence}`);
    const modify = records.find((record) => record.eventName === 'MODIFY' && record.dynamodb.Keys.pk.S === 'movie#1');
    assert.deepEqual(modify.dynamodb.OldImage.title, { S: 'Alien' });
    assert.deepEqual(modify.dynamodb.NewImage.title, { S: 'Alien (1979)' });
    assert.deepEqual(modify.dynamodb.NewImage.tags, { SS: ['space'] });
  });

  await step('PartiQL: ExecuteStatement INSERT, then SELECT with a parameter', async () => {
    await dynamo.send(new ExecuteStatementCommand({
      Statement: `INSERT INTO "${table}" VALUE {'pk': ?, 'sk': ?, 'title': ?, 'genre': 'drama', 'year': 1972}`,
      Parameters: [{ S: 'movie#9' }, { N: '1' }, { S: 'Solaris' }],
    }));
    const selected = await dynamo.send(new ExecuteStatementCommand({
      Statement: `SELECT title, "year" FROM "${table}" WHERE pk = ? AND sk = 1`,
      Parameters: [{ S: 'movie#9' }],
    }));
    assert.deepEqual(selected.Items, [{ title: { S: 'Solaris' }, year: { N: '1972' } }]);
    const duplicate = await rejectsWith(DuplicateItemException, () => dynamo.send(new ExecuteStatementCommand({
      Statement: `INSERT INTO "${table}" VALUE {'pk': 'movie#9', 'sk': 1}`,
    })));
    assert.equal(duplicate.message, 'Duplicate primary key exists in table');
    const saga = await dynamo.send(new ExecuteStatementCommand({
      Statement: `SELECT sk FROM "${table}" WHERE pk = 'saga' AND sk >= 3`,
    }));
    assert.deepEqual(saga.Items, [{ sk: { N: '3' } }, { sk: { N: '4' } }]);
  });

  await step('PartiQL: BatchExecuteStatement writes, then reads', async () => {
    const writes = await dynamo.send(new BatchExecuteStatementCommand({
      Statements: [
        { Statement: `INSERT INTO "${table}" VALUE {'pk': 'movie#10', 'sk': 1, 'title': 'Stalker'}` },
        { Statement: `UPDATE "${table}" SET seen = ? WHERE pk = 'saga' AND sk = 2`, Parameters: [{ BOOL: true }] },
        { Statement: `INSERT INTO "${table}" VALUE {'pk': 'movie#9', 'sk': 1}` },
      ],
    }));
    assert.equal(writes.Responses.length, 3);
    assert.equal(writes.Responses[0].Error, undefined);
    assert.equal(writes.Responses[1].Error, undefined);
    assert.equal(writes.Responses[2].Error.Code, 'DuplicateItem');
    const reads = await dynamo.send(new BatchExecuteStatementCommand({
      Statements: [
        { Statement: `SELECT title FROM "${table}" WHERE pk = 'movie#10' AND sk = 1` },
        { Statement: `SELECT seen FROM "${table}" WHERE pk = ? AND sk = ?`, Parameters: [{ S: 'saga' }, { N: '2' }] },
      ],
    }));
    assert.deepEqual(reads.Responses.map((response) => response.Item),
      [{ title: { S: 'Stalker' } }, { seen: { BOOL: true } }]);
  });

  await step('PartiQL: ExecuteTransaction', async () => {
    await dynamo.send(new ExecuteTransactionCommand({
      TransactStatements: [
        { Statement: `UPDATE "${table}" SET rating = ? WHERE pk = 'movie#10' AND sk = 1`, Parameters: [{ N: '8.1' }] },
        { Statement: `DELETE FROM "${table}" WHERE pk = 'movie#9' AND sk = 1` },
      ],
    }));
    const after = await dynamo.send(new BatchExecuteStatementCommand({
      Statements: [
        { Statement: `SELECT rating FROM "${table}" WHERE pk = 'movie#10' AND sk = 1` },
        { Statement: `SELECT * FROM "${table}" WHERE pk = 'movie#9' AND sk = 1` },
      ],
    }));
    assert.deepEqual(after.Responses[0].Item, { rating: { N: '8.1' } });
    assert.equal(after.Responses[1].Item, undefined);
    assert.equal(after.Responses[1].Error, undefined);
  });

  await step('DeleteTable, then waitUntilTableNotExists', async () => {
    const deleted = await dynamo.send(new DeleteTableCommand({ TableName: table }));
    assert.equal(deleted.TableDescription.TableName, table);
    assert.ok(['DELETING', 'ACTIVE'].includes(deleted.TableDescription.TableStatus), deleted.TableDescription.TableStatus);
    const waited = await waitUntilTableNotExists({ client: dynamo, minDelay: 1, maxDelay: 2, maxWaitTime: 30 },
      { TableName: table });
    assert.equal(waited.state, 'SUCCESS');
    const gone = await rejectsWith(ResourceNotFoundException,
      () => dynamo.send(new DescribeTableCommand({ TableName: table })));
    assert.match(gone.message, /not found/);
  });
}

try {
  await walkthrough();
  console.log(JSON.stringify({ table, passed }));
} catch (error) {
  const detail = error instanceof assert.AssertionError
    ? error.message
    : `${error?.name}: ${error?.message}${error?.$metadata ? ` (HTTP ${error.$metadata.httpStatusCode})` : ''}`;
  console.error(`DIVERGENCE at step "${current}" (after ${passed.length} passed steps):\n${detail}`);
  if (!(error instanceof assert.AssertionError) && error?.stack) {
    console.error(error.stack);
  }
  process.exit(1);
}
