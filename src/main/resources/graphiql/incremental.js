/*
 * moviegraph — GraphiQL's incremental delivery (window.moviegraphGraphiql.
 * boundaryLast and .incremental), loaded before app.js, whose fetcher uses it.
 *
 * A query with @defer comes back as multipart/mixed: a first part {data,
 * hasNext: true}, then parts {incremental: [{data, path, label, errors}],
 * hasNext} (Apollo's deferSpec=20220824), the last with the request's whole
 * receipt. GraphiQL 3.2 reads the parts (with the meros library it bundles)
 * but merges only the older {data, path} parts: they are merged here, and
 * GraphiQL is given the whole result so far after each read.
 */
(function () {
  'use strict';

  var ns = window.moviegraphGraphiql = window.moviegraphGraphiql || {};

  /**
   * The bundled meros takes everything after "boundary=" as the boundary, so a
   * parameter after it (our "; deferSpec=20220824") would spoil it: the same
   * response with the boundary as the content type's last parameter.
   */
  function boundaryLast(response) {
    var type = response.headers.get('content-type') || '';
    if (!/^\s*multipart\//i.test(type)) {
      return response;
    }
    var params = type.split(';').map(function (p) { return p.trim(); }).filter(Boolean);
    var boundary = params.filter(function (p) { return /^boundary=/i.test(p); });
    var headers = new window.Headers(response.headers);
    headers.set('content-type', params.filter(function (p) { return !/^boundary=/i.test(p); })
      .concat(boundary).join('; '));
    return new window.Response(response.body, { status: response.status, statusText: response.statusText,
      headers: headers });
  }

  function isObject(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  }

  /** Merges a deferred fragment's fields into what is there: objects field by field, lists item by item. */
  function mergeInto(target, source) {
    Object.keys(source).forEach(function (key) {
      var a = target[key];
      var b = source[key];
      if (isObject(a) && isObject(b)) {
        mergeInto(a, b);
      } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
        b.forEach(function (item, i) {
          if (isObject(a[i]) && isObject(item)) {
            mergeInto(a[i], item);
          } else {
            a[i] = item;
          }
        });
      } else {
        target[key] = b;
      }
    });
  }

  /**
   * The result of an incrementally delivered query, part by part: add(parts)
   * merges the parts of one read and returns the whole result so far (a new
   * object, for GraphiQL to show): data with every deferred fragment at its
   * path, every error, the latest extensions (the last part has the request's
   * whole receipt) and hasNext while more is to come.
   */
  function incremental() {
    var data = null;
    var errors = [];
    var extensions = null;
    var hasNext = true;
    function addErrors(list) {
      if (Array.isArray(list)) {
        errors = errors.concat(list);
      }
    }
    function place(item) {
      addErrors(item.errors);
      var at = data;
      var path = Array.isArray(item.path) ? item.path : [];
      for (var i = 0; i < path.length && at != null; i++) {
        at = at[path[i]];
      }
      if (isObject(at) && isObject(item.data)) {
        mergeInto(at, item.data);
      }
    }
    return function add(parts) {
      parts.forEach(function (part) {
        if (!isObject(part)) {
          return;
        }
        if ('data' in part && !('path' in part)) {
          data = part.data;
        } else if ('path' in part) {
          place(part); // the incremental delivery draft's older part: {data, path}
        }
        if (!('path' in part)) {
          addErrors(part.errors);
        }
        (Array.isArray(part.incremental) ? part.incremental : []).forEach(place);
        if (part.extensions) {
          extensions = part.extensions;
        }
        if (typeof part.hasNext === 'boolean') {
          hasNext = part.hasNext;
        }
      });
      var result = { data: data };
      if (errors.length) {
        result.errors = errors;
      }
      if (extensions) {
        result.extensions = extensions;
      }
      // Not "hasNext": GraphiQL would merge this whole result once more.
      result.pending = hasNext;
      return { result: result, done: !hasNext };
    };
  }


  /**
   * The parts in what GraphiQL's fetcher yields: an array of parts (one read of
   * a multipart answer) or one part ({..., hasNext}); null for one JSON answer.
   */
  function incrementalParts(value) {
    if (Array.isArray(value)) {
      return value;
    }
    return isObject(value) && 'hasNext' in value ? [value] : null;
  }

  ns.boundaryLast = boundaryLast;
  ns.incrementalParts = incrementalParts;
  ns.incremental = incremental;
})();
