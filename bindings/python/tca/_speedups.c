/* tca._speedups: the optional compiled path of Store.send (docs/python.md, "The compiled send").
 *
 * `method(Store, pure_send, encoded)` makes Store.send a method of C (a method descriptor, as
 * `list.append`), remembering the pure-Python send and the package's cache of encoded action
 * names (tca._codec.ENCODED). `sender(send_n, handle, raised)` binds one store: the address of
 * tca_store_send_n (from ctypes, so this module links against nothing), the store's handle and
 * its list of exceptions raised in callbacks; tca._fastsend keeps it as the store's `_sender`,
 * a field of C in every store: Store derives from this module's `StoreBase`.
 *
 * Called with an action, the method reads the store's `_sender` and sends a str whose encoding is
 * cached, bytes, or a dict of plain JSON values (written here, see write_value), and returns
 * None; for anything else (a dataclass, a name not cached yet, a dict holding a float or another
 * type), or a store without a `_sender` (closed, or given the pure path), it calls the pure-Python
 * send, which encodes the action, fills the cache and reports errors; a failed status or an
 * exception from a callback goes to the store's `_surface`, which raises exactly what the
 * pure-Python send raises.
 *
 * NB: a method, not a function kept on each store: the call holds the store (a temporary
 * `Store(...).send(...)` stays open until its send returns, and its error comes out), and no
 * store refers to its own send (dropping the last reference to a store still frees it at once).
 *
 * NB: `_sender` is a field of StoreBase, not an entry of the store's __dict__: the method reads it
 * in a few instructions, where an attribute lookup took about 190 of a send's (docs/benchmarks.md,
 * "The Python floor").
 *
 * NB: built against the limited API (abi3), so one build loads in any CPython 3.9+; another
 * Python (PyPy) fails the import and Store.send stays pure Python.
 *
 * NB: the GIL is held through the library's send, where ctypes releases it: releasing and taking
 * it back was ~26 ns of a ~140 ns send (docs/benchmarks.md, "The Python floor"). It cannot
 * deadlock: a send waits only for the store's lock, and no thread holding that lock waits for
 * anything (callbacks, another thread's callback, a join) or runs host code (docs/python.md,
 * "The compiled send"). Callbacks the send delivers run on this thread, which holds the GIL
 * already; another thread's callbacks (a threaded store's) wait for it until the send returns.
 */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <structmember.h>

/* NB: in the stable ABI from 3.10, and exported by every CPython since 3.3: declared here so that
 * the 3.9 limited-API build can read a str's UTF-8 without making a bytes object per string. */
#if Py_LIMITED_API + 0 < 0x030A0000
PyAPI_FUNC(const char *) PyUnicode_AsUTF8AndSize(PyObject *unicode, Py_ssize_t *size);
#endif

typedef int32_t (*send_n_fn)(void *store, const char *action_json, size_t length);

/* One store's binding: what the method needs of it on every send. */
typedef struct {
  PyObject_HEAD
  send_n_fn send_n;
  void *store;
  PyObject *raised; /* list: the store's exceptions from callbacks */
} Sender;

/* The base of Store: its `_sender` (None, or the Sender that binds it). */
typedef struct {
  PyObject_HEAD
  PyObject *sender;
} StoreBase;

static PyObject *sender_type;
static PyObject *store_base_type;
static PyObject *pure_send; /* the pure-Python Store.send */
static PyTypeObject *store_class; /* Store, whose `send` the method is (borrowed: kept by it) */
static PyObject *encoded;   /* dict: str -> bytes */
static PyObject *surface_name;

static void sender_dealloc(PyObject *self) {
  Sender *sender = (Sender *)self;
  PyTypeObject *type = Py_TYPE(self);
  Py_CLEAR(sender->raised);
  freefunc free_slot = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_slot(self);
  Py_DECREF(type);
}

/* The pure-Python send of `action` to `store`. */
static PyObject *send_slowly(PyObject *store, PyObject *action) {
  return PyObject_CallFunctionObjArgs(pure_send, store, action, NULL);
}

#include "_speedups_json.h"

/* Store.send: the method's body (METH_O: no argument tuple is built per call). */
static PyObject *store_send(PyObject *store, PyObject *action) {
  /* NB: the descriptor checks that `store` is a Store, which derives from StoreBase; checked
   * again here (cheaply: the exact type first) for a Store built without it. */
  if (Py_TYPE(store) != store_class &&
      !PyType_IsSubtype(Py_TYPE(store), (PyTypeObject *)store_base_type)) {
    return send_slowly(store, action);
  }
  PyObject *bound = ((StoreBase *)store)->sender;
  if (bound == NULL || Py_TYPE(bound) != (PyTypeObject *)sender_type) {
    return send_slowly(store, action);
  }
  /* NB: `bound` is held to the end: another thread may take it off the store meanwhile. */
  Py_INCREF(bound);
  Sender *sender = (Sender *)bound;
  int32_t status;
  if (PyUnicode_CheckExact(action)) {
    PyObject *data = PyDict_GetItemWithError(encoded, action); /* borrowed */
    char *text = NULL;
    Py_ssize_t length = 0;
    if (data == NULL || !PyBytes_Check(data) ||
        PyBytes_AsStringAndSize(data, &text, &length) < 0) {
      Py_DECREF(bound);
      if (PyErr_Occurred()) return NULL;
      return send_slowly(store, action);
    }
    /* NB: the cached encoding lives in the dict; hold it across the call, where a callback the
     * send delivers may clear the cache. */
    Py_INCREF(data);
    status = sender->send_n(sender->store, text, (size_t)length);
    Py_DECREF(data);
  } else if (PyBytes_CheckExact(action)) {
    char *text = NULL;
    Py_ssize_t length = 0;
    if (PyBytes_AsStringAndSize(action, &text, &length) < 0) {
      Py_DECREF(bound);
      return NULL;
    }
    /* NB: `action` is held by the caller, and bytes cannot change. */
    status = sender->send_n(sender->store, text, (size_t)length);
  } else if (PyDict_CheckExact(action)) {
    /* NB: a dict is written here, without the pure-Python send's frame, the json module's
     * encoder (~700 ns for a todo's action) and the ctypes call. No Python code runs while it
     * is written (exact types only), so the dict cannot change meanwhile. */
    Buffer buffer;
    buffer_init(&buffer);
    int written = write_value(&buffer, action, 0);
    if (written != WROTE) {
      buffer_free(&buffer);
      Py_DECREF(bound);
      return written == DECLINED ? send_slowly(store, action) : NULL;
    }
    status = sender->send_n(sender->store, buffer.data, buffer.length);
    buffer_free(&buffer);
  } else {
    Py_DECREF(bound);
    return send_slowly(store, action);
  }
  int quiet = status == 0 && PyList_Size(sender->raised) == 0;
  Py_DECREF(bound);
  if (quiet) Py_RETURN_NONE;
  PyObject *code = PyLong_FromLong(status);
  if (code == NULL) return NULL;
  PyObject *result = PyObject_CallMethodObjArgs(store, surface_name, code, NULL);
  Py_DECREF(code);
  return result;
}

/* ---- StoreBase ------------------------------------------------------------------------- */

static int store_base_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((StoreBase *)self)->sender);
  return 0;
}

static int store_base_clear(PyObject *self) {
  Py_CLEAR(((StoreBase *)self)->sender);
  return 0;
}

/* NB: reached from the subclass's dealloc (Store is a class of Python), which, for a base that is
 * a heap type, leaves the type's reference to it. */
static void store_base_dealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  store_base_clear(self);
  freefunc free_slot = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_slot(self);
  Py_DECREF(type);
}

static PyMemberDef store_base_members[] = {
    {"_sender", T_OBJECT, offsetof(StoreBase, sender), 0,
     "What the compiled send needs of this store (a Sender), or None: the pure-Python send."},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot store_base_slots[] = {
    {Py_tp_dealloc, (void *)store_base_dealloc},
    {Py_tp_traverse, (void *)store_base_traverse},
    {Py_tp_clear, (void *)store_base_clear},
    {Py_tp_members, (void *)store_base_members},
    {Py_tp_doc, (void *)"The base of tca.Store where Store.send is compiled: its `_sender`."},
    {0, NULL},
};

static PyType_Spec store_base_spec = {
    "tca._speedups.StoreBase", sizeof(StoreBase), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, store_base_slots,
};

/* ---- Sender ----------------------------------------------------------------------------- */

static PyType_Slot sender_slots[] = {
    {Py_tp_dealloc, (void *)sender_dealloc},
    {Py_tp_doc, (void *)"What Store.send's compiled path needs of one store (see tca._speedups)."},
    {0, NULL},
};

static PyType_Spec sender_spec = {
    "tca._speedups.Sender", sizeof(Sender), 0, Py_TPFLAGS_DEFAULT, sender_slots,
};

/* NB: its doc is set by method(): the pure-Python send's, after the signature. */
static PyMethodDef send_def = {"send", store_send, METH_O, NULL};

/* sender(send_n_address, handle, raised) -> one store's binding */
static PyObject *make_sender(PyObject *module, PyObject *args) {
  (void)module;
  unsigned long long send_n = 0, store = 0;
  PyObject *raised = NULL;
  if (!PyArg_ParseTuple(args, "KKO!", &send_n, &store, &PyList_Type, &raised)) return NULL;
  if (send_n == 0) {
    PyErr_SetString(PyExc_ValueError, "sender: the function address is 0");
    return NULL;
  }
  Sender *sender = (Sender *)PyType_GenericAlloc((PyTypeObject *)sender_type, 0);
  if (sender == NULL) return NULL;
  sender->send_n = (send_n_fn)(uintptr_t)send_n;
  sender->store = (void *)(uintptr_t)store;
  Py_INCREF(raised);
  sender->raised = raised;
  return (PyObject *)sender;
}

/* method(cls, pure_send, encoded) -> Store.send's method descriptor */
static PyObject *make_method(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *cls = NULL, *pure = NULL, *cache = NULL;
  if (!PyArg_ParseTuple(args, "O!OO!", &PyType_Type, &cls, &pure, &PyDict_Type, &cache)) {
    return NULL;
  }
  if (send_def.ml_doc == NULL) {
    /* NB: the signature first, as builtins write it, for inspect.signature and help(). */
    const char *doc = "";
    PyObject *text = PyObject_GetAttrString(pure, "__doc__");
    if (text == NULL) return NULL;
    if (PyUnicode_Check(text)) doc = PyUnicode_AsUTF8AndSize(text, NULL);
    if (doc == NULL) {
      Py_DECREF(text);
      return NULL;
    }
    const char *signature = "send($self, action, /)\n--\n\n";
    size_t size = strlen(signature) + strlen(doc) + 1;
    char *whole = PyMem_Malloc(size); /* NB: kept for good, as the PyMethodDef is */
    if (whole == NULL) {
      Py_DECREF(text);
      return PyErr_NoMemory();
    }
    snprintf(whole, size, "%s%s", signature, doc);
    Py_DECREF(text);
    send_def.ml_doc = whole;
  }
  if (!PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)store_base_type)) {
    PyErr_SetString(PyExc_TypeError, "method: the class does not derive from StoreBase");
    return NULL;
  }
  Py_INCREF(cls);
  Py_XDECREF(store_class);
  store_class = (PyTypeObject *)cls;
  Py_INCREF(pure);
  Py_XDECREF(pure_send);
  pure_send = pure;
  Py_INCREF(cache);
  Py_XDECREF(encoded);
  encoded = cache;
  return PyDescr_NewMethod((PyTypeObject *)cls, &send_def);
}

/* dumps(value) -> bytes, or None when declined: the compiled send's JSON writer, for tests. */
static PyObject *dumps(PyObject *module, PyObject *value) {
  (void)module;
  Buffer buffer;
  buffer_init(&buffer);
  int written = write_value(&buffer, value, 0);
  PyObject *result = NULL;
  if (written == WROTE) {
    result = PyBytes_FromStringAndSize(buffer.data, (Py_ssize_t)buffer.length);
  } else if (written == DECLINED) {
    result = Py_None;
    Py_INCREF(result);
  }
  buffer_free(&buffer);
  return result;
}

static PyMethodDef methods[] = {
    {"dumps", dumps, METH_O,
     "dumps(value) -> the JSON bytes the compiled send writes for it, or None (declined)"},
    {"method", make_method, METH_VARARGS,
     "method(cls, pure_send, encoded) -> Store.send's compiled method descriptor"},
    {"sender", make_sender, METH_VARARGS,
     "sender(send_n_address, handle, raised) -> one store's binding for the compiled send"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "tca._speedups", "Store.send's optional compiled path.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
  PyObject *module = PyModule_Create(&module_def);
  if (module == NULL) return NULL;
  sender_type = PyType_FromSpec(&sender_spec);
  store_base_type = PyType_FromSpec(&store_base_spec);
  surface_name = PyUnicode_InternFromString("_surface");
  if (sender_type == NULL || store_base_type == NULL || surface_name == NULL) {
    Py_DECREF(module);
    return NULL;
  }
  Py_INCREF(store_base_type);
  if (PyModule_AddObject(module, "StoreBase", store_base_type) < 0) {
    Py_DECREF(store_base_type);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
