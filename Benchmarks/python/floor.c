/* floor.c — build/bench/_benchfloor.abi3.so: the C-extension floor of the Python rows of
 * `make bench` (Benchmarks/python/bench.py; docs/benchmarks.md, "The Python floor").
 *
 * `Floor(send_n_address, encoded)` stands where a store stands: `floor.send(action)` is a method
 * of C called as Store.send is (METH_O, through a bound method), and does what tca.Store.send's
 * compiled path (bindings/python/tca/_speedups.c) does around the library: a str is looked up in
 * the cache of encoded names (tca._codec.ENCODED, the same dict), bytes are taken as they are, a
 * dict of plain JSON values is written by the same writer (tca/_speedups_json.h); then, with the
 * GIL released, one call through a function pointer into another shared library
 * (bench_noop_send_n in libbenchnoop.so, which does nothing), and a check of its status. What
 * Store.send costs above this is its own binding's and the library's work.
 *
 * Built as tca._speedups is (limited API, -O2), by the Makefile's bench target.
 */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if Py_LIMITED_API + 0 < 0x030A0000
PyAPI_FUNC(const char *) PyUnicode_AsUTF8AndSize(PyObject *unicode, Py_ssize_t *size);
#endif

#include "_speedups_json.h"

typedef int32_t (*send_n_fn)(void *store, const char *action_json, size_t length);

typedef struct {
  PyObject_HEAD
  send_n_fn send_n;
  PyObject *encoded; /* dict: str -> bytes */
} Floor;

/* The no-op's failure, as a send's would be reported (never happens: it returns 0). */
static PyObject *failed(int32_t status) {
  PyErr_Format(PyExc_RuntimeError, "floor: status %d", (int)status);
  return NULL;
}

static PyObject *floor_send(PyObject *self, PyObject *action) {
  Floor *floor = (Floor *)self;
  int32_t status;
  if (PyUnicode_CheckExact(action)) {
    PyObject *data = PyDict_GetItemWithError(floor->encoded, action); /* borrowed */
    char *text = NULL;
    Py_ssize_t length = 0;
    if (data == NULL || !PyBytes_Check(data) ||
        PyBytes_AsStringAndSize(data, &text, &length) < 0) {
      if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, action);
      return NULL;
    }
    Py_INCREF(data);
    Py_BEGIN_ALLOW_THREADS
    status = floor->send_n(NULL, text, (size_t)length);
    Py_END_ALLOW_THREADS
    Py_DECREF(data);
  } else if (PyBytes_CheckExact(action)) {
    char *text = NULL;
    Py_ssize_t length = 0;
    if (PyBytes_AsStringAndSize(action, &text, &length) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    status = floor->send_n(NULL, text, (size_t)length);
    Py_END_ALLOW_THREADS
  } else if (PyDict_CheckExact(action)) {
    Buffer buffer;
    buffer_init(&buffer);
    int written = write_value(&buffer, action, 0);
    if (written != WROTE) {
      buffer_free(&buffer);
      if (written == DECLINED) PyErr_SetString(PyExc_TypeError, "floor: a dict it cannot write");
      return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    status = floor->send_n(NULL, buffer.data, buffer.length);
    Py_END_ALLOW_THREADS
    buffer_free(&buffer);
  } else {
    PyErr_SetString(PyExc_TypeError, "floor: a str, bytes or dict action");
    return NULL;
  }
  if (status) return failed(status);
  Py_RETURN_NONE;
}

static PyObject *floor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  unsigned long long send_n = 0;
  PyObject *encoded = NULL;
  if (kwargs != NULL && PyDict_Size(kwargs) > 0) {
    PyErr_SetString(PyExc_TypeError, "Floor(send_n_address, encoded)");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "KO!", &send_n, &PyDict_Type, &encoded)) return NULL;
  if (send_n == 0) {
    PyErr_SetString(PyExc_ValueError, "Floor: the function address is 0");
    return NULL;
  }
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  Floor *floor = (Floor *)alloc(type, 0);
  if (floor == NULL) return NULL;
  floor->send_n = (send_n_fn)(uintptr_t)send_n;
  Py_INCREF(encoded);
  floor->encoded = encoded;
  return (PyObject *)floor;
}

static void floor_dealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  Py_CLEAR(((Floor *)self)->encoded);
  freefunc free_slot = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_slot(self);
  Py_DECREF(type);
}

static PyMethodDef floor_methods[] = {
    {"send", floor_send, METH_O, "send(action): Store.send's argument handling around a no-op"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot floor_slots[] = {
    {Py_tp_new, (void *)floor_new},
    {Py_tp_dealloc, (void *)floor_dealloc},
    {Py_tp_methods, (void *)floor_methods},
    {Py_tp_doc, (void *)"Floor(send_n_address, encoded): the C-extension floor of Store.send."},
    {0, NULL},
};

static PyType_Spec floor_spec = {
    "_benchfloor.Floor", sizeof(Floor), 0, Py_TPFLAGS_DEFAULT, floor_slots,
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_benchfloor", "The C-extension floor of Store.send.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__benchfloor(void) {
  PyObject *module = PyModule_Create(&module_def);
  if (module == NULL) return NULL;
  PyObject *type = PyType_FromSpec(&floor_spec);
  if (type == NULL || PyModule_AddObject(module, "Floor", type) < 0) {
    Py_XDECREF(type);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
