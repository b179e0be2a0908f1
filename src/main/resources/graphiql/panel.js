/*
 * moviegraph — GraphiQL's "DynamoDB" plugin (window.moviegraphGraphiql.
 * dynamoDbPlugin), loaded before app.js. It shows the last response's
 * extensions, which app.js's fetcher puts in a store: the receipt (cost), the
 * trace of every DynamoDB call (header Moviegraph-Trace: on) or the plan
 * (Moviegraph-Trace: plan). No JSX, no build step: elements are made with
 * React.createElement (h below).
 */
(function () {
  'use strict';

  var ns = window.moviegraphGraphiql = window.moviegraphGraphiql || {};

  /**
   * The plugin GraphiQL shows in its sidebar. store: {state: {running, last},
   * subscribe(listener)} (app.js); traceHeader: the name of the trace header.
   */
  ns.dynamoDbPlugin = function (store, TRACE_HEADER) {
    var React = window.React;
    var h = React.createElement;

    function useStore() {
      var pair = React.useState(store.state);
      var setState = pair[1];
      React.useEffect(function () {
        setState(store.state); // In case it changed between render and subscription.
        return store.subscribe(setState);
      }, []);
      return pair[0];
    }

    /** Milliseconds with as many decimals as are readable. */
    function ms(value) {
      var n = Number(value) || 0;
      return n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : 2);
    }

    /** Capacity units (the server rounds them to 3 decimals). */
    function units(value) {
      return String(Number(value) || 0);
    }

    function plural(n, one, many) {
      return n + ' ' + (n === 1 ? one : many);
    }

    function code(text) {
      return h('code', { className: 'moviegraph-code' }, text);
    }

    function stat(label, value, key) {
      return h('div', { className: 'moviegraph-stat', key: key || label },
        h('span', { className: 'moviegraph-stat-value' }, value),
        h('span', { className: 'moviegraph-stat-label' }, label));
    }

    /** A paragraph of help; children: a string or an array of strings and elements. */
    function hint(children, key) {
      return h.apply(null, ['p', { className: 'moviegraph-hint', key: key }].concat(children));
    }

    function Paths(props) {
      var paths = [].concat(props.paths || []);
      if (!paths.length) {
        return h('span', { className: 'moviegraph-muted' }, '—');
      }
      return h('span', { className: 'moviegraph-paths' },
        paths.map(function (path, i) { return h('code', { className: 'moviegraph-code', key: i }, path); }));
    }

    function table(headers, rows, className) {
      return h('div', { className: 'moviegraph-table-scroll' },
        h('table', { className: 'moviegraph-table' + (className ? ' ' + className : '') },
          h('thead', null, h('tr', null, headers.map(function (title, i) {
            var numeric = typeof title === 'object';
            return h('th', { key: i, className: numeric ? 'moviegraph-num' : undefined, title: numeric ? title.title : undefined },
              numeric ? title.label : title);
          }))),
          h('tbody', null, rows)));
    }

    /**
     * A table cell that carries its column's name: in a narrow panel the rows are
     * laid out as cards (page.css) and each figure shows its name above it.
     */
    function cell(label, className) {
      var children = Array.prototype.slice.call(arguments, 2);
      return h.apply(null, ['td', { className: className || undefined, 'data-label': label }].concat(children));
    }

    function num(label, title) {
      return { label: label, title: title };
    }

    function CostView(props) {
      var cost = props.cost;
      return h('section', { className: 'moviegraph-section' },
        h('h3', { className: 'moviegraph-heading' }, 'Receipt'),
        h('div', { className: 'moviegraph-stats' },
          stat('requests', cost.requests),
          stat('read units', units(cost.readUnits)),
          stat('write units', units(cost.writeUnits))));
    }

    function TraceView(props) {
      var trace = props.trace;
      var calls = trace.calls || [];
      // The scale of the waterfall: the whole request (and never less than the calls).
      var scale = calls.reduce(function (max, call) {
        return Math.max(max, (Number(call.startMs) || 0) + (Number(call.durationMs) || 0));
      }, Number(trace.totalMs) || 0);

      function bar(call) {
        var left = scale > 0 ? (Number(call.startMs) || 0) / scale * 100 : 0;
        var width = scale > 0 ? (Number(call.durationMs) || 0) / scale * 100 : 0;
        left = Math.min(Math.max(left, 0), 99.5);
        width = Math.min(Math.max(width, 0.5), 100 - left); // Always visible, never past the end.
        return h('div', { className: 'moviegraph-waterfall', title: 'starts at ' + ms(call.startMs) + ' ms, takes ' + ms(call.durationMs) + ' ms' },
          h('div', {
            className: 'moviegraph-waterfall-bar' + (call.failed ? ' moviegraph-failed-bar' : ''),
            style: { left: left.toFixed(2) + '%', width: width.toFixed(2) + '%' }
          }));
      }

      var rows = calls.map(function (call, i) {
        var key = call.keyCondition != null ? code(call.keyCondition)
          : plural(Number(call.keys) || 0, 'key', 'keys');
        return h(React.Fragment, { key: i },
          h('tr', { className: 'moviegraph-call' + (call.failed ? ' moviegraph-failed' : '') },
            cell('#', 'moviegraph-num moviegraph-muted', i + 1),
            cell('Operation', null, call.operation, call.failed ? h('span', { className: 'moviegraph-badge' }, 'failed') : null),
            cell('Index', null, call.index),
            cell('Pattern', 'moviegraph-wide', call.pattern),
            cell('Key', 'moviegraph-key moviegraph-wide', key),
            cell('Items', 'moviegraph-num', call.items),
            cell('Pages', 'moviegraph-num', call.pages),
            cell('Req.', 'moviegraph-num', call.requests),
            cell('RCU', 'moviegraph-num', units(call.readUnits)),
            cell('ms', 'moviegraph-num', ms(call.durationMs))),
          h('tr', { className: 'moviegraph-call-detail' + (call.failed ? ' moviegraph-failed' : '') },
            h('td', { className: 'moviegraph-spacer' }),
            h('td', { colSpan: 9, className: 'moviegraph-wide' }, h(Paths, { paths: call.paths }), bar(call))));
      });

      return h('section', { className: 'moviegraph-section' },
        h('h3', { className: 'moviegraph-heading' }, 'Trace'),
        h('div', { className: 'moviegraph-stats' },
          stat('ms total', ms(trace.totalMs)),
          stat('ms DynamoDB', ms(trace.dynamoDbMs)),
          stat('ms gateway', ms(trace.gatewayMs))),
        calls.length === 0
          ? hint('No DynamoDB call: nothing in this query needed the table.')
          : table(['#', 'Operation', 'Index', 'Pattern', 'Key', num('Items'), num('Pages'),
            num('Req.', 'HTTP requests, retries included'), num('RCU', 'read capacity units'), num('ms')],
            rows, 'moviegraph-calls'));
    }

    function PlanView(props) {
      var plan = props.plan;
      var fields = plan.fields || [];
      var rows = fields.map(function (field, i) {
        return h('tr', { key: i },
          cell('Paths', 'moviegraph-wide', h(Paths, { paths: field.paths })),
          cell('Pattern', 'moviegraph-wide', field.pattern),
          cell('Operation', null, field.operation),
          cell('Index', null, field.index),
          cell('Calls', 'moviegraph-num', field.calls),
          cell('Key template', 'moviegraph-key moviegraph-wide', field.keyTemplate != null ? code(field.keyTemplate) : '—'));
      });
      return h('section', { className: 'moviegraph-section' },
        h('h3', { className: 'moviegraph-heading' }, 'Plan (not executed)'),
        h('div', { className: 'moviegraph-stats' },
          stat('DynamoDB calls', plan.calls),
          stat('fields', fields.length)),
        fields.length === 0
          ? hint('No DynamoDB call: nothing in this query needs the table.')
          : table(['Paths', 'Pattern', 'Operation', 'Index', num('Calls'), 'Key template'], rows));
    }

    function LastResponse(props) {
      var last = props.last;
      var response = last.response && typeof last.response === 'object' ? last.response : {};
      var extensions = response.extensions || {};
      var errors = Array.isArray(response.errors) ? response.errors : [];
      var parts = [];

      parts.push(h('p', { className: 'moviegraph-meta', key: 'meta' },
        last.operationName ? code(last.operationName) : 'Anonymous operation',
        ' · ', TRACE_HEADER + ': ' + last.mode,
        ' · ', last.at.toLocaleTimeString()));

      if (last.error) {
        parts.push(h('p', { className: 'moviegraph-problem', key: 'error' }, 'The request failed: ' + last.error));
      }
      if (errors.length) {
        parts.push(h('p', { className: 'moviegraph-problem', key: 'errors' },
          plural(errors.length, 'error', 'errors') + ' in the response'
          + (errors[0] && errors[0].message ? ', first: ' + errors[0].message : '')));
      }
      if (extensions.plan) {
        parts.push(h(PlanView, { plan: extensions.plan, key: 'plan' }));
      }
      if (extensions.cost) {
        parts.push(h(CostView, { cost: extensions.cost, key: 'cost' }));
      }
      if (extensions.trace) {
        parts.push(h(TraceView, { trace: extensions.trace, key: 'trace' }));
      } else if (extensions.cost) {
        parts.push(hint(['No trace for this request: send header ', code(TRACE_HEADER + ': on'),
          ' to see every DynamoDB call.'], 'no-trace'));
      }
      if (!last.error && !extensions.plan && !extensions.cost) {
        parts.push(hint('This response has no DynamoDB receipt (the request was rejected before it ran).', 'none'));
      }
      return h(React.Fragment, null, parts);
    }

    function DynamoDbPanel() {
      var state = useStore();
      return h('div', { className: 'moviegraph-dynamo' },
        h('div', { className: 'moviegraph-title' }, 'DynamoDB'),
        state.running
          ? h('p', { className: 'moviegraph-meta moviegraph-running' },
            'Running ', state.running.operationName ? code(state.running.operationName) : 'an anonymous operation', '…')
          : null,
        state.last
          ? h(LastResponse, { last: state.last })
          : h(React.Fragment, null,
            hint(['Run a query: its DynamoDB receipt (requests, read and write units) shows here, and with header ',
              code(TRACE_HEADER + ': on'), ' (set in the Headers editor of these tabs) every call it made, in order, with its timing.'], 'run'),
            hint(['Header ', code(TRACE_HEADER + ': plan'),
              ' shows the plan instead: the DynamoDB calls a query would make, without running it.'], 'plan')));
    }

    function DynamoDbIcon(props) {
      // A database cylinder, drawn like GraphiQL's own icons (stroke in currentColor).
      return h('svg', Object.assign({
        viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.5,
        strokeLinecap: 'round', strokeLinejoin: 'round'
      }, props),
      h('ellipse', { cx: 12, cy: 5, rx: 8, ry: 3 }),
      h('path', { d: 'M4 5v14c0 1.66 3.58 3 8 3s8-1.34 8-3V5' }),
      h('path', { d: 'M4 12c0 1.66 3.58 3 8 3s8-1.34 8-3' }));
    }

    return { title: 'DynamoDB', icon: DynamoDbIcon, content: DynamoDbPanel };
  };
})();
