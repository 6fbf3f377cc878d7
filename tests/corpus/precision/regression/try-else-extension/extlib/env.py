def collect_env_info():
    data = []
    try:
        from extlib import _C
    except ImportError:
        data.append(("compiler", "extension not built"))
    else:
        data.append(("compiler", _C.get_compiler_version()))
    return data
