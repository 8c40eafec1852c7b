// Everything a C++ plugin includes: #include <opbase/sdk.hpp>
#pragma once

#include "opbase/abi.h"
#include "opbase/error_code.hpp"
#include "opbase/field_error.hpp"
#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "opbase/plugin.hpp"
#include "opbase/route.hpp"
#include "opbase/status.hpp"
